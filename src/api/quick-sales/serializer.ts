import type { Static } from '@sinclair/typebox'
import type { QuickSaleRow } from './queries.ts'
import type { QuickSalesOut } from './schema.ts'

export const serializeQuickSales = (rows: QuickSaleRow[]): Static<typeof QuickSalesOut> => ({
  quick_sales: rows.map((row) => ({
    purchase_type: row.purchase_type,
    product_id: row.product_id,
    label: row.label,
  })),
})

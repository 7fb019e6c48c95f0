import { Type as t } from '@sinclair/typebox'
import { field } from '../../http/fields.ts'
import { LINE_PURCHASE_TYPES } from '../../domain/sales.ts'
import { someOf } from '../../lib/choices.ts'

/** The purchase types a quick-sale button sells: a product of the catalogue, one line per click. */
export const QUICK_SALE_TYPES = someOf(LINE_PURCHASE_TYPES, ['MIN', 'EPA', 'VPO'])

/** The most buttons the Sell screen shows. */
export const MAX_QUICK_SALES = 8

export const QuickSaleWrite = t.Object({
  purchase_type: field.choice(QUICK_SALE_TYPES, {
    description: 'MIN a membership type, EPA an entry pass type, VPO a voucher pack',
  }),
  product_id: field.integer({ description: 'The product of that type; active (ACT) when the list is saved' }),
  label: t.Optional(
    field.text({ maxLength: 40, description: "What the button says; default the product's name" }),
  ),
})

export const QuickSalesReplace = t.Object({
  quick_sales: t.Array(QuickSaleWrite, {
    maxItems: MAX_QUICK_SALES,
    description: `At most ${MAX_QUICK_SALES} buttons, shown in this order; [] shows none`,
  }),
})

/** The body's top level as first checked: each button is then checked on its own. */
export const QuickSalesTop = t.Object({ quick_sales: t.Array(t.Unknown()) })

export const QuickSaleOut = t.Object({
  purchase_type: t.String(),
  product_id: t.Integer(),
  label: t.String(),
})

export const QuickSalesOut = t.Object(
  { quick_sales: t.Array(QuickSaleOut) },
  { description: "The Sell screen's one-click buttons, in the order shown" },
)

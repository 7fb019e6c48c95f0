import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { QuickSaleTable } from '../../db/schema.ts'

export type QuickSaleRow = Selectable<QuickSaleTable>

export const listQuickSales = (db: Db): Promise<QuickSaleRow[]> =>
  db
    .selectFrom('quick_sales')
    .select(['position', 'purchase_type', 'product_id', 'label'])
    .orderBy('position')
    .execute()

/** The whole list replaced, in one transaction. */
export const replaceQuickSales = (db: Db, rows: Insertable<QuickSaleTable>[]): Promise<void> =>
  db.transaction().execute(async (trx) => {
    await trx.deleteFrom('quick_sales').execute()
    if (rows.length > 0) await trx.insertInto('quick_sales').values(rows).execute()
  })

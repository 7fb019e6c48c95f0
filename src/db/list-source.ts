import { sql, type SelectQueryBuilder } from 'kysely'

/** What a list is paginated from: how many records it holds, and one page of them in its order. */
export interface ListSource<Row> {
  count(): Promise<number>
  rows(limit: number, offset: number): Promise<Row[]>
}

const countAll = sql<number>`count(*)`.as('n')

/**
 * A list from its filtered query, as DRF pages a filtered queryset: `filtered` is the FROM, joins
 * and WHERE, with no columns and no order. The count is `count(*)` over it; a page is it in `order`,
 * limited and offset, with the columns `rows` reads (its own, or the page's ids joined to computed
 * ones). Both statements start from the one query, so the count counts what the pages hold, and
 * both run on the Kysely that `filtered` was built on.
 */
export function listFrom<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, {}>,
  read: {
    /** The list's stable order, ending in the id. */
    order(query: SelectQueryBuilder<DB, TB, {}>): SelectQueryBuilder<DB, TB, {}>
    rows(page: SelectQueryBuilder<DB, TB, {}>): Promise<Row[]>
  },
): ListSource<Row> {
  return {
    // The selection's type cannot be worked out for any DB and TB; it is the one column `n`.
    count: async () =>
      Number((await filtered.select(countAll).$castTo<{ n: number }>().executeTakeFirstOrThrow()).n),
    rows: (limit, offset) => read.rows(read.order(filtered).limit(limit).offset(offset)),
  }
}

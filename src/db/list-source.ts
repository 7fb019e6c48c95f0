import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely'

/** What a list is paginated from: how many records it holds, and one page of them in its order. */
export interface ListSource<Row> {
  count(): Promise<number>
  rows(limit: number, offset: number): Promise<Row[]>
  /**
   * Every record in the list's order, `size` at a time (an export), for a list ordered by a keyset:
   * each chunk is its own statement, reading on from the last row of the one before by the order's
   * columns (never an offset, which SQLite would count its way through), so the whole list is never
   * held at once, and each chunk costs what the first did. Each chunk sees the data as it is when it
   * is read: a record written meanwhile may or may not be among them; none comes twice. The next
   * chunk's statement starts as soon as a chunk is given out, so it reads while that one is used.
   */
  chunks?(size: number): AsyncGenerator<Row[], void, undefined>
}

/**
 * A list's order as a keyset: columns whose values, the last one the id, tell any two records apart,
 * all ascending or all descending (compared as one row value, which an index on them serves), and
 * how to read those values off a row that `rows` gave.
 */
export interface Keyset<Row> {
  columns: readonly string[]
  descending?: boolean
  of(row: Row): readonly unknown[]
  /**
   * The same selection spelled for reading in the keyset's order, when the list's own spelling
   * leads SQLite to an index that must sort what it finds (chunks then read it instead).
   */
  filtered?: SelectQueryBuilder<any, any, {}>
}

const countAll = sql<number>`count(*)`.as('n')

/**
 * A list from its filtered query, as DRF pages a filtered queryset: `filtered` is the FROM, joins
 * and WHERE, with no columns and no order. The count is `count(*)` over it; a page is it in `order`,
 * limited and offset, with the columns `rows` reads (its own, or the page's ids joined to computed
 * ones). Both statements start from the one query, so the count counts what the pages hold, and
 * both run on the Kysely that `filtered` was built on. An order given as a `keyset` also reads the
 * list in chunks (ListSource.chunks).
 */
export function listFrom<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, {}>,
  read: {
    /** The list's stable order, ending in the id. */
    order(query: SelectQueryBuilder<DB, TB, {}>): SelectQueryBuilder<DB, TB, {}>
    rows(page: SelectQueryBuilder<DB, TB, {}>): Promise<Row[]>
  },
): ListSource<Row>
export function listFrom<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, {}>,
  read: { keyset: Keyset<Row>; rows(page: SelectQueryBuilder<DB, TB, {}>): Promise<Row[]> },
): ListSource<Row>
export function listFrom<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, {}>,
  read: {
    order?(query: SelectQueryBuilder<DB, TB, {}>): SelectQueryBuilder<DB, TB, {}>
    keyset?: Keyset<Row>
    rows(page: SelectQueryBuilder<DB, TB, {}>): Promise<Row[]>
  },
): ListSource<Row> {
  const keyset = read.keyset
  const order = keyset ? (query: SelectQueryBuilder<DB, TB, {}>) => orderedBy(query, keyset) : read.order!
  return {
    // The selection's type cannot be worked out for any DB and TB; it is the one column `n`.
    count: async () =>
      Number((await filtered.select(countAll).$castTo<{ n: number }>().executeTakeFirstOrThrow()).n),
    rows: (limit, offset) => read.rows(order(filtered).limit(limit).offset(offset)),
    ...(keyset
      ? {
          async *chunks(size: number) {
            const selection = (keyset.filtered as typeof filtered | undefined) ?? filtered
            const chunkAfter = (after: readonly unknown[] | undefined) =>
              read.rows(
                order(after === undefined ? selection : selection.where(beyond(keyset, after))).limit(size),
              )
            // The next chunk is read while this one is taken (on the reader, its query runs beside
            // the server's thread, which meanwhile writes this chunk out): one chunk ahead, no more.
            let next: Promise<Row[]> | undefined = chunkAfter(undefined)
            try {
              while (next) {
                const rows: Row[] = await next
                next = rows.length < size ? undefined : chunkAfter(keyset.of(rows.at(-1)!))
                if (rows.length > 0) yield rows
              }
            } finally {
              // Stopped early (the client went away): the chunk read ahead is not wanted, nor its error.
              next?.catch(() => {})
            }
          },
        }
      : {}),
  }
}

/** The query in the keyset's order. */
function orderedBy<DB, TB extends keyof DB>(query: SelectQueryBuilder<DB, TB, {}>, keyset: Keyset<unknown>) {
  const direction = keyset.descending ? 'desc' : 'asc'
  return keyset.columns.reduce((ordered, column) => ordered.orderBy(sql.ref(column), direction), query)
}

/** The rows after `values` in the keyset's order: one row-value comparison, which an index serves. */
const beyond = (keyset: Keyset<unknown>, values: readonly unknown[]) =>
  sql<SqlBool>`(${sql.join(keyset.columns.map((column) => sql.ref(column)))}) ${sql.raw(
    keyset.descending ? '<' : '>',
  )} (${sql.join(values.map((value) => sql`${value}`))})`

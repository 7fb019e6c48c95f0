import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'

/**
 * `column` contains `term`, case-insensitively (ASCII), with LIKE's wildcards escaped. A column is
 * named, or given as an expression (a number searched as its text).
 */
export function contains(column: string | Expression<unknown>, term: string): Expression<SqlBool> {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const value = typeof column === 'string' ? sql.ref(column) : column
  return sql<SqlBool>`${value} LIKE ${pattern} ESCAPE '\\'`
}

/**
 * DRF's SearchFilter: the search string splits on spaces, and every term must match at least one
 * of the columns.
 */
export function searchTerms(
  eb: ExpressionBuilder<any, any>,
  columns: (string | Expression<unknown>)[],
  search: string,
): Expression<SqlBool> {
  const terms = search.split(/\s+/).filter(Boolean)
  return eb.and(terms.map((term) => eb.or(columns.map((column) => contains(column, term)))))
}

import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'

/** `column` contains `term`, case-insensitively (ASCII), with LIKE's wildcards escaped. */
export function contains(column: string, term: string): Expression<SqlBool> {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return sql<SqlBool>`${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`
}

/**
 * DRF's SearchFilter: the search string splits on spaces, and every term must match at least one
 * of the columns.
 */
export function searchTerms(
  eb: ExpressionBuilder<any, any>,
  columns: string[],
  search: string,
): Expression<SqlBool> {
  const terms = search.split(/\s+/).filter(Boolean)
  return eb.and(terms.map((term) => eb.or(columns.map((column) => contains(column, term)))))
}

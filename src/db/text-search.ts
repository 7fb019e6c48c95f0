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

/** DRF's SearchFilter's terms: the search string split on spaces. */
export const searchWords = (search: string): string[] => search.split(/\s+/).filter(Boolean)

/**
 * DRF's SearchFilter: every term (of the search string, or as `searchWords` split it) must match
 * at least one of the columns.
 */
export function searchTerms(
  eb: ExpressionBuilder<any, any>,
  columns: (string | Expression<unknown>)[],
  search: string | readonly string[],
): Expression<SqlBool> {
  const terms = typeof search === 'string' ? searchWords(search) : search
  return eb.and(terms.map((term) => eb.or(columns.map((column) => contains(column, term)))))
}

/** The trigram tokenizer indexes every run of three characters, so a shorter term has none to find. */
const TRIGRAM_LENGTH = 3

/**
 * SearchFilter's terms over an FTS5 table with the trigram tokenizer: `match` is a MATCH expression
 * that holds where every term long enough for the index is a substring of one column (any case),
 * each quoted as a phrase so that `"`, `*`, `%` and the like in it are only text; it is undefined
 * when no term is long enough. `unindexed` are the shorter terms, for `searchTerms` to match.
 */
export function trigramSearch(terms: readonly string[]): { match?: string; unindexed: string[] } {
  // The tokenizer counts characters, not UTF-16 units: spreading a string splits it into those.
  const indexed = terms.filter((term) => [...term].length >= TRIGRAM_LENGTH)
  return {
    match:
      indexed.length === 0
        ? undefined
        : indexed.map((term) => `"${term.replaceAll('"', '""')}"`).join(' AND '),
    unindexed: terms.filter((term) => [...term].length < TRIGRAM_LENGTH),
  }
}

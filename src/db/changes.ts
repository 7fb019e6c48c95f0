/**
 * The columns a PATCH actually sets: Kysely writes `SET` with no columns (a syntax error) when every
 * value is undefined, so update queries drop those and skip the statement when nothing is left.
 */
export function definedChanges<T extends object>(changes: T): Partial<T> | null {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined)
  return entries.length > 0 ? (Object.fromEntries(entries) as Partial<T>) : null
}

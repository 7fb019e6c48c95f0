import type { Database as BunDatabase } from 'bun:sqlite'

/**
 * Work run first in every write transaction on a connection, inside it: a box that is a site of a
 * hub marks there which transaction the row changes its capture triggers record belong to, and
 * when it was (src/core/sites/capture.ts). Kysely's transactions and lone writes
 * (bun-sqlite-dialect.ts) and group commit (group-commit.ts) call it; nothing is registered on a
 * box without a hub, and then they do exactly what they did before.
 */
const hooks = new WeakMap<BunDatabase, () => void>()

export function setWriteTransactionHook(sqlite: BunDatabase, hook: (() => void) | undefined): void {
  if (hook) hooks.set(sqlite, hook)
  else hooks.delete(sqlite)
}

export function writeTransactionHookOf(sqlite: BunDatabase): (() => void) | undefined {
  return hooks.get(sqlite)
}

import type { Deps } from '../deps.ts'

/**
 * Runs `work` as one synchronous write transaction on the raw connection (BEGIN IMMEDIATE: the write
 * lock is taken up front, so a read-decide-write sequence such as the door's duplicate check cannot
 * race). It holds Kysely's lock on the connection meanwhile, so no Kysely query or transaction
 * interleaves with it. `work` must not await: the transaction is open only while it runs.
 */
export function syncTransaction<T>(deps: Pick<Deps, 'db' | 'sqlite'>, work: () => T): Promise<T> {
  return deps.db.connection().execute(async () => deps.sqlite.transaction(work).immediate())
}

/** Runs synchronous reads on the raw connection while holding Kysely's lock (no transaction needed). */
export function syncRead<T>(deps: Pick<Deps, 'db'>, work: () => T): Promise<T> {
  return deps.db.connection().execute(async () => work())
}

import type { Database as BunDatabase } from 'bun:sqlite'
import type { Db } from './connection.ts'
import { groupCommitFor, type Lane } from './group-commit.ts'

/**
 * Runs `work` as a synchronous write transaction on the raw connection: under BEGIN IMMEDIATE (the
 * write lock is taken up front, so a read-decide-write sequence such as the door's duplicate check
 * cannot race), committed together with the others queued in the same turn of the event loop (see
 * group-commit.ts). The promise resolves once the COMMIT that holds `work` is on disk. `work` must
 * not await: the transaction is open only while it runs. A `background` work gives way to the
 * others (see group-commit.ts).
 */
export function syncTransaction<T>(
  deps: { db: Db; sqlite: BunDatabase },
  work: () => T,
  lane: Lane = 'foreground',
): Promise<T> {
  return groupCommitFor(deps.db, deps.sqlite).run(work, lane)
}

/** Runs synchronous reads on the raw connection while holding its lock (no transaction needed). */
export function syncRead<T>(deps: { db: Db }, work: () => T): Promise<T> {
  return deps.db.connection().execute(async () => work())
}

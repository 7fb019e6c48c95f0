/**
 * The demo's check-ins thread (see check-in-thread.ts): makes the planned check-ins' rows and
 * writes them into a database file of their own, telling the main thread how far it has got.
 *
 * Built into the executable as its own entrypoint (build/build.ts).
 */
import { Database as BunDatabase } from 'bun:sqlite'
import { Kysely } from 'kysely'
import { bunSqliteDialect } from '../db/bun-sqlite-dialect.ts'
import type { Database } from '../db/schema.ts'
import { forgetStatements } from '../db/statements.ts'
import { CHECK_IN_COLUMNS, checkInBatches } from './check-in-rows.ts'
import type { CheckInReply, CheckInRequest } from './check-in-thread.ts'
import { insertValues } from './store.ts'

declare const self: Worker

const reply = (message: CheckInReply) => self.postMessage(message)

/** Check-ins made into rows and written at a time: enough for few round trips, few held at once. */
const CHECK_IN_BATCH = 10_000
/** How often the long check-ins insert says how far it has got. */
const CHECK_IN_PROGRESS = 500_000

self.onmessage = async ({ data }: MessageEvent<CheckInRequest>) => {
  try {
    await writeCheckIns(data)
    reply({ type: 'done' })
  } catch (error) {
    reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}

/**
 * Writes the check-ins into a new file, a batch at a time in one transaction, with nothing synced
 * or journalled: the file is thrown away once copied, and a crash loses only it. Foreign keys are
 * off, as the tables check_ins refers to are not in this file.
 */
async function writeCheckIns({ plan, path, table }: CheckInRequest): Promise<void> {
  const sqlite = new BunDatabase(path, { create: true, strict: true })
  const db = new Kysely<Database>({ dialect: bunSqliteDialect(sqlite) })
  try {
    sqlite.run('PRAGMA journal_mode = OFF')
    sqlite.run('PRAGMA synchronous = OFF')
    sqlite.run('PRAGMA foreign_keys = OFF')
    sqlite.run(table)
    await db.transaction().execute(async (trx) => {
      let written = 0
      for (const batch of checkInBatches(plan, CHECK_IN_BATCH)) {
        await insertValues(trx, 'check_ins', CHECK_IN_COLUMNS, batch)
        written += batch.length / CHECK_IN_COLUMNS.length
        if (written % CHECK_IN_PROGRESS < CHECK_IN_BATCH && written < plan.count)
          reply({ type: 'written', rows: written, at: performance.timeOrigin + performance.now() })
      }
    })
  } finally {
    forgetStatements(sqlite)
    await db.destroy()
  }
}

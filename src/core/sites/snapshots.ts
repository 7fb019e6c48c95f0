import { Database } from 'bun:sqlite'
import { existsSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { copyDatabase } from '../../db/snapshot.ts'
import { ZERO_HLC } from '../../lib/hlc.ts'
import { registerSite } from './attach.ts'
import type { Hub } from './hub-types.ts'
import { tablesWithRole } from './tables.ts'

/*
 * The hub's snapshots: what a box joining from nothing starts from. A snapshot is a copy of a
 * site's database as of one instant (VACUUM INTO: one read transaction) with the stream position
 * it covers, made fit for another box:
 *
 * - it covers the stream up to what its site had applied (sync_state.applied_stream_sequence);
 * - every change its own site had made is in it, sent or not: sync_applied says so (up to the last
 *   outbox sequence ever given), so the joiner skips them when they come down the stream;
 * - the box's own local rows are emptied (tokens, sessions, webhook deliveries, the outbox, which
 *   site it is), but for what the joiner needs to go on: the migrations applied, how far each site's
 *   changes are applied, and the columns' clocks.
 */

/** Local tables a snapshot keeps: the joiner carries on from them. */
const KEPT_LOCAL_TABLES = new Set(['schema_migrations', 'sync_applied', 'sync_clocks'])

/** Copies the database at `dbPath`, readies the copy for joiners and uploads it. */
export async function uploadSnapshot(dbPath: string, hub: Hub): Promise<{ coversStreamSequence: number }> {
  const copy = join(dirname(dbPath), `.site-snapshot-${process.pid}-${Date.now()}.sqlite3`)
  try {
    await copyDatabase(dbPath, copy)
    const coversStreamSequence = readyForJoiners(copy)
    await hub.putSnapshot(copy, coversStreamSequence)
    return { coversStreamSequence }
  } finally {
    rmSync(copy, { force: true })
  }
}

/** Readies a copy of a site's database for joiners; the stream sequence it covers. */
export function readyForJoiners(path: string): number {
  const db = new Database(path, { strict: true })
  try {
    const state = db.query('SELECT site, applied_stream_sequence FROM sync_state WHERE id = 1').get() as {
      site: string
      applied_stream_sequence: number
    } | null
    if (!state) throw new Error('a snapshot is made from a site: this database is not one')
    const given = db.query("SELECT seq FROM sqlite_sequence WHERE name = 'sync_outbox'").get() as {
      seq: number
    } | null
    db.transaction(() => {
      db.query(
        `INSERT INTO sync_applied (site, change_seq) VALUES (?, ?)
         ON CONFLICT (site) DO UPDATE SET change_seq = max(change_seq, excluded.change_seq)`,
      ).run(state.site, given?.seq ?? 0)
      for (const table of tablesWithRole('local'))
        if (!KEPT_LOCAL_TABLES.has(table)) db.run(`DELETE FROM "${table}"`)
    })()
    db.run('VACUUM')
    return state.applied_stream_sequence
  } finally {
    db.close()
  }
}

/**
 * Makes the database at `dbPath`, which must not exist, a new site from the hub's newest snapshot:
 * downloaded beside it, registered there as site `want.site` (the hub numbers it) to follow the
 * stream from what the snapshot covers, and only then renamed into place, so a box stopped halfway
 * leaves no database behind and joins again.
 */
export async function joinFromSnapshot(
  dbPath: string,
  hub: Hub,
  want: { site: string; organization: string },
): Promise<{ coversStreamSequence: number; siteNumber: number }> {
  if (existsSync(dbPath)) throw new Error(`${dbPath} exists: a box joins only into a new database file`)
  const joining = `${dbPath}.joining`
  await hub.ready()
  const got = await hub.newestSnapshot(joining)
  if (!got)
    throw new Error(
      "the hub holds no snapshot of the organization yet: start its first box, on the organization's existing database, with --hub first",
    )
  const databaseId = crypto.randomUUID()
  const siteNumber = await hub.siteNumber(databaseId)
  const db = new Database(joining, { strict: true })
  try {
    registerSite(db, { ...want, databaseId, siteNumber }, ZERO_HLC, got.coversStreamSequence)
  } finally {
    db.close()
  }
  renameSync(joining, dbPath)
  return { ...got, siteNumber }
}

import type { Database as BunDatabase } from 'bun:sqlite'
import { SITE_NAME, SITE_NAME_RULE } from '../../domain/sites.ts'
import { allocateSiteIds, stopAllocatingSiteIds } from '../../db/site-ids.ts'
import { hybridLogicalClock, type Hlc } from '../../lib/hlc.ts'
import {
  capturedTables,
  dropCaptureTriggers,
  installCapture,
  markWriteTransactions,
  stopMarkingWriteTransactions,
  type CapturedTable,
} from './capture.ts'
import { replicatedTables } from './tables.ts'

/** Which site a box is: its name, the number the hub gave it, and its organization on the hub. */
export interface SiteIdentity {
  site: string
  databaseId: string
  siteNumber: number
  organization: string
}

/** What the publisher and the applier of an attached box work with. */
export interface AttachedSite extends SiteIdentity {
  sqlite: BunDatabase
  /** The replicated tables as this database has them, by name. */
  tables: ReadonlyMap<string, CapturedTable>
  clock: Hlc
  /** This database's schema level: its highest migration's number. */
  level: number
  /** Stops capturing and allocating (the box closing, or a test). */
  detach(): void
}

/** The site this database is, from its state row; null when it has never been one. */
export function storedSite(sqlite: BunDatabase): SiteIdentity | null {
  const row = sqlite
    .query('SELECT site, database_id, site_number, hub_organization FROM sync_state WHERE id = 1')
    .get() as { site: string; database_id: string; site_number: number; hub_organization: string } | null
  return (
    row && {
      site: row.site,
      databaseId: row.database_id,
      siteNumber: row.site_number,
      organization: row.hub_organization,
    }
  )
}

/**
 * Records which site this database is, the first time it becomes one (the hub gave the number),
 * and the stream sequence it has applied up to: 0 for the organization's first box, what the
 * snapshot covers for a box joining from one.
 */
export function registerSite(
  sqlite: BunDatabase,
  identity: SiteIdentity,
  firstHlc: string,
  appliedStreamSequence = 0,
): void {
  if (!SITE_NAME.test(identity.site))
    throw new Error(`site name ${JSON.stringify(identity.site)}: use ${SITE_NAME_RULE}`)
  sqlite
    .query(
      `INSERT INTO sync_state
         (id, site, database_id, site_number, hub_organization, hlc, applied_stream_sequence)
       VALUES (1, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      identity.site,
      identity.databaseId,
      identity.siteNumber,
      identity.organization,
      firstHlc,
      appliedStreamSequence,
    )
}

/**
 * Makes the registered database work as its site: the capture triggers for the tables as they are
 * now, the mark at the start of each write transaction, and the site's ids. Run at every start
 * with a hub, after the migrations, before anything is served.
 */
export function attachSite(sqlite: BunDatabase, wallMs: () => number): AttachedSite {
  const identity = storedSite(sqlite)
  if (!identity) throw new Error('this database is not a site yet: registerSite first')
  const { hlc } = sqlite.query('SELECT hlc FROM sync_state WHERE id = 1').get() as { hlc: string }
  const clock = hybridLogicalClock(wallMs, hlc)
  const declared = Object.fromEntries(replicatedTables().map((table) => [table.name, table]))
  const tables = capturedTables(sqlite, declared)
  installCapture(sqlite, tables)
  markWriteTransactions(sqlite, clock)
  allocateSiteIds(
    sqlite,
    identity.siteNumber,
    tables.filter((table) => table.siteAllocatesIds).map((table) => table.name),
  )
  return {
    ...identity,
    sqlite,
    tables: new Map(tables.map((table) => [table.name, table])),
    clock,
    level: schemaLevel(sqlite),
    detach() {
      stopMarkingWriteTransactions(sqlite)
      stopAllocatingSiteIds(sqlite)
    },
  }
}

/** Takes the capture triggers away: the box is no longer a site (its state row stays). */
export function removeCapture(sqlite: BunDatabase): void {
  stopMarkingWriteTransactions(sqlite)
  stopAllocatingSiteIds(sqlite)
  dropCaptureTriggers(sqlite)
}

/** The number of the highest migration applied: `0029_sites` is level 29. */
export function schemaLevel(sqlite: BunDatabase): number {
  const row = sqlite.query('SELECT max(name) AS name FROM schema_migrations').get() as { name: string | null }
  return row.name ? Number.parseInt(row.name.slice(0, 4), 10) : 0
}

import type { Insertable } from 'kysely'
import type { SiteStatus } from '../../src/core/sites/hub-types.ts'
import type { SiteLocalStatus, SiteView } from '../../src/core/sites/site.ts'
import type { Db } from '../../src/db/connection.ts'
import type { SyncConflictTable } from '../../src/db/tables/sites.ts'
import { START } from './app.ts'

/**
 * The box as a site, as the API sees it (`Deps.site`), told by the test: what the box knows of
 * itself, what the hub says of every site, and the stream's last sequence. Give one to
 * `useSeededApp({ site })` and set its fields in the test (`reset()` before each).
 */
export class FakeSite implements SiteView {
  local!: SiteLocalStatus
  /** null: the hub cannot be asked. */
  sites!: SiteStatus[] | null
  lastSequence!: number | null

  constructor() {
    this.reset()
  }

  /** Site "north", number 1, linked, nothing unsent, applied to 40 of a 42-long stream. */
  reset(): void {
    this.local = {
      site: 'north',
      siteNumber: 1,
      hubReachable: true,
      hubUnreachableSince: null,
      unsentRows: 0,
      oldestUnsentAgeSeconds: null,
      appliedStreamSequence: 40,
      applyingStopped: null,
    }
    this.sites = [
      {
        site: 'north',
        number: 1,
        lastSeen: new Date('2026-11-22T15:04:01.000Z'),
        appliedStreamSequence: 39,
        unsentChanges: 0,
        applyingStopped: null,
      },
    ]
    this.lastSequence = 42
  }

  /** The hub lost since `since`: nothing can be asked of it. */
  cutOff(since: string): void {
    this.local = { ...this.local, hubReachable: false, hubUnreachableSince: new Date(since) }
    this.sites = null
    this.lastSequence = null
  }

  status(): SiteLocalStatus {
    return { ...this.local }
  }

  async hubSites(): Promise<SiteStatus[] | null> {
    return this.sites
  }

  async streamLastSequence(): Promise<number | null> {
    return this.lastSequence
  }
}

/** A conflict as applying the stream records it; a customer's barcode unless told otherwise. */
export async function makeConflict(
  db: Db,
  fields: Partial<Insertable<SyncConflictTable>> & { kept: number; lost: number },
): Promise<number> {
  const { kept, lost, ...rest } = fields
  const row = await db
    .insertInto('sync_conflicts')
    .values({
      detected_at: START,
      table_name: 'customers',
      column_names: '["barcode"]',
      value: '1234',
      kept_row_key: JSON.stringify([kept]),
      lost_row_key: JSON.stringify([lost]),
      lost_site: 'south',
      resolution: 'cleared',
      ...rest,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

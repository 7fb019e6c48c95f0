import type { Generated } from 'kysely'

/**
 * The box's replication state when it is a site of a hub (migration 0029; src/core/sites/). Local to
 * the box: never replicated, empty on a box without a hub.
 */

export interface SyncStateTable {
  /** Always 1: one row. */
  id: number
  /** This box's site name (`--site`). */
  site: string
  /** The id this database registered the name under on the hub: another database cannot take it. */
  database_id: string
  /** Its number on the hub, 1..1023: the ids this box allocates are this number modulo 1024. */
  site_number: number
  /** The organization's name on the hub: its stream and buckets are named for it. */
  hub_organization: string
  /** The local write transaction in progress: the captured rows of one transaction share it. */
  tx: Generated<number>
  /** That transaction's hybrid-logical-clock timestamp (src/lib/hlc.ts). */
  hlc: string
  /** 1 while a remote change is applied: nothing is captured then. */
  applying: Generated<number>
  /** The hub stream's sequence applied up to. */
  applied_stream_sequence: Generated<number>
  /** Why applying stopped (a change from a newer schema level), or null. */
  stopped_reason: string | null
}

export interface SyncOutboxTable {
  /** Never reused: a change's sequence is its identity on the hub. */
  seq: Generated<number>
  tx: number
  hlc: string
  table_name: string
  op: 'insert' | 'update' | 'delete'
  /** JSON array of the row's key values. */
  row_key: string
  /** JSON object of the row's columns before (update, delete) and after (insert, update). */
  old_values: string | null
  new_values: string | null
}

export interface SyncAppliedTable {
  /** An origin site's name. */
  site: string
  /** The last of its changes applied here. */
  change_seq: number
}

export interface SyncClockTable {
  table_name: string
  row_key: string
  column_name: string
  /** When the write that set the column's value was made, and where: the last writer wins. */
  hlc: string
  site: string
}

export interface SyncConflictTable {
  id: Generated<number>
  detected_at: string
  table_name: string
  /** JSON array of the unique columns. */
  column_names: string
  /** The value both rows were given, as text. */
  value: string
  kept_row_key: string
  lost_row_key: string
  /** The site that gave the value to the row that lost it. */
  lost_site: string
  resolution: 'cleared' | 'refused' | 'not applied'
}

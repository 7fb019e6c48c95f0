import type { Generated } from 'kysely'

/**
 * How far `belay import` has copied an organization from another server (migration 0033;
 * src/import/): one row per collection, local to the box (a site never sends it).
 */
export interface ImportProgressTable {
  /** the collection's name as the closing table shows it ('customers', 'customer credits', ...) */
  collection: string
  /** the order the collections are copied in */
  position: number
  /** the source's base URL: every row names the same one */
  source: string
  state: Generated<'pending' | 'running' | 'done' | 'missing'>
  /** under a parent (a customer, a gym, an event type): the parent being copied */
  parent_id: string | null
  /** the next page to ask for; null: the first page (of parent_id's collection) */
  next_url: string | null
  records: Generated<number>
  /** the source's count as its last page said (summed over parents for a nested collection) */
  total: number | null
  updated_at: string
}

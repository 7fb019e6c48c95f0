import type { Database } from '../../db/schema.ts'

/*
 * Every table of the database, declared once for replication between sites:
 *
 * - replicated: its rows are captured where they are written, sent to every other site and
 *   applied there, merged column by column;
 * - derived: rebuilt at each site from the replicated rows, by its own triggers or catch-ups, and
 *   never sent: applying the rows it is kept from keeps it, so sending it too would count it twice;
 * - local: this box's own, never sent (sessions, webhook deliveries, the sync state itself).
 *
 * A new table is declared here in the change that creates it; test/core/sites/tables.test.ts reads
 * the migrated schema and fails on a table in none of the three. SQLite's own tables
 * (`sqlite_sequence`, `sqlite_stat1`, ...) are SQLite's bookkeeping of this one file and are never
 * declared (see isSqliteOwnTable).
 */

export type TableRole = 'replicated' | 'derived' | 'local'

/**
 * What happens to a row that took a unique value another site gave first while the two were apart:
 * the row earlier in the stream keeps it, and the later one has the value set to NULL ('clear',
 * for a nullable column only) or its change is refused ('refuse'); either way a conflict is
 * recorded.
 */
export type UniqueLoser = 'clear' | 'refuse'

export interface UniqueValue<Column extends string = string> {
  /** the column, or the columns together, of one UNIQUE constraint or index */
  readonly columns: readonly Column[]
  readonly loser: UniqueLoser
}

export interface ReplicatedTable<Column extends string = string> {
  readonly role: 'replicated'
  /** the columns that name a row at every site: its primary key */
  readonly key: readonly Column[]
  /**
   * Numbers two sites may both change while apart, sent as the change (a delta) and applied as an
   * addition, so that two offline decrements both count. Every other column travels as its value.
   */
  readonly counters?: readonly Column[]
  /**
   * Columns a trigger or catch-up keeps from other rows: never sent, since applying the rows they
   * are kept from keeps them at each site.
   */
  readonly derivedColumns?: readonly Column[]
  /** the UNIQUE values (other than the key's site-allocated ids) two sites could give twice */
  readonly unique?: readonly UniqueValue<Column>[]
}

export interface DerivedTable {
  readonly role: 'derived'
  /** what it is derived from, and what keeps it */
  readonly why: string
}

export interface LocalTable {
  readonly role: 'local'
  /** why it stays on this box */
  readonly why: string
}

export type TableDeclaration = ReplicatedTable | DerivedTable | LocalTable

/** A table's column names where its table type knows them (src/db/schema.ts), else any string. */
type ColumnOf<Table extends string> = Table extends keyof Database
  ? Extract<keyof Database[Table], string>
  : string

type DeclarationOf<Table extends string> = ReplicatedTable<ColumnOf<Table>> | DerivedTable | LocalTable

/** Every table with a type in src/db/schema.ts must be declared, its columns named as typed. */
type Declarations = { readonly [Table in keyof Database]: DeclarationOf<Table> } & {
  readonly [table: string]: TableDeclaration
}

const syncState: LocalTable = { role: 'local', why: "the sync engine's own state at this site" }

const byId = { role: 'replicated', key: ['id'] } as const

export const TABLES = {
  // The organization and its gyms: every site holds the one organization row and every gym.
  organization: { role: 'replicated', key: ['id'] },
  gyms: byId,
  tax_rates: byId,
  // The desk's one-click products are the organization's, chosen by an admin; a position is a slot.
  quick_sales: { role: 'replicated', key: ['position'] },

  // Staff: password and PIN hashes travel with the user, so staff log in at any site.
  staff_users: {
    role: 'replicated',
    key: ['id'],
    // NOT NULL: the later of two users given one email while apart cannot lose it, so it is refused.
    unique: [{ columns: ['email'], loser: 'refuse' }],
  },
  auth_tokens: { role: 'local', why: 'an API token is valid at the box that issued it' },
  // Kiosk sessions too (auth_sessions.kiosk): a kiosk is one box's browser.
  auth_sessions: { role: 'local', why: "a browser's session lives on the box it logged in to" },

  // Customers and every record under them.
  customers: {
    role: 'replicated',
    key: ['id'],
    // The door adds one per check-in: two sites' check-ins while apart must both count. Its
    // first_check_in_timestamp is written by the door's code with it, not kept by a trigger, so it
    // travels as its value.
    counters: ['check_in_count'],
    // Nullable: the later of two customers given one barcode keeps their record without it.
    unique: [{ columns: ['barcode'], loser: 'clear' }],
  },
  customer_alerts: byId,
  customer_credits: {
    role: 'replicated',
    key: ['id'],
    // Drawn on by sales and put back by refunds, at any site.
    counters: ['amount_remaining_cents'],
  },
  customer_emergency_contacts: byId,
  customer_medical_notes: byId,
  customer_relations: {
    role: 'replicated',
    key: ['id'],
    // Two sites relating the same two customers while apart: the later relation is a duplicate.
    unique: [{ columns: ['customer_id', 'related_customer_id'], loser: 'refuse' }],
  },
  customer_documents: byId,
  // A document's file (a signed waiver's PDF): the document is read at every site.
  customer_document_files: { role: 'replicated', key: ['document_id'] },
  customer_photos: { role: 'replicated', key: ['customer_id'] },
  // The PIN's hash travels, so a member checks in at any site's kiosk.
  customer_kiosk_pins: { role: 'replicated', key: ['customer_id'] },
  waiver_texts: byId,
  waiver_signatures: { role: 'replicated', key: ['document_id'] },
  customer_event_vouchers: {
    role: 'replicated',
    key: ['id'],
    // Used up by bookings at any site.
    counters: ['number_of_uses_remaining'],
  },

  // Products and what customers hold of them.
  membership_types: byId,
  // Add-on ids are names staff choose: two sites may create the same one while apart.
  add_ons: { role: 'replicated', key: ['id'], unique: [{ columns: ['id'], loser: 'refuse' }] },
  customer_memberships: byId,
  membership_status_changes: byId,
  membership_members: {
    role: 'replicated',
    key: ['id'],
    // Two sites adding the same member while apart: the later one is a duplicate.
    unique: [{ columns: ['customer_membership_id', 'customer_id'], loser: 'refuse' }],
  },
  membership_member_add_ons: { role: 'replicated', key: ['membership_member_id', 'add_on_id'] },
  entry_pass_types: byId,
  customer_entry_passes: {
    role: 'replicated',
    key: ['id'],
    // One entry taken per check-in, at whichever site's door.
    counters: ['entries_remaining'],
  },
  event_types: byId,
  event_categories: byId,
  event_type_categories: { role: 'replicated', key: ['event_type_id', 'event_category_id'] },
  // A schedule's events are made by the site that made the schedule (core/classes/schedules.ts), so
  // two sites never make one date's event; were they to, the later one is refused.
  events: {
    role: 'replicated',
    key: ['id'],
    unique: [{ columns: ['schedule_id', 'schedule_date'], loser: 'refuse' }],
  },
  reservations: byId,
  waitlist_entries: byId,
  event_questions: byId,
  event_schedules: byId,
  // Two sites excepting one date of a schedule while apart: the later exception is a duplicate.
  event_schedule_exceptions: {
    role: 'replicated',
    key: ['id'],
    unique: [{ columns: ['schedule_id', 'date'], loser: 'refuse' }],
  },
  // Route setting: a name two sites gave while apart (two "V4"s, two "The Cave"s) is one grade or
  // section twice, so the later is refused; a climb and its setters are written whole at one site.
  grades: {
    role: 'replicated',
    key: ['id'],
    unique: [{ columns: ['gym_id', 'discipline', 'name'], loser: 'refuse' }],
  },
  sections: {
    role: 'replicated',
    key: ['id'],
    unique: [{ columns: ['gym_id', 'name'], loser: 'refuse' }],
  },
  climbs: byId,
  climb_setters: { role: 'replicated', key: ['climb_id', 'staff_user_id'] },
  voucher_packs: byId,
  discounts: {
    role: 'replicated',
    key: ['id'],
    // Codes staff choose; NOT NULL, so the later discount with a taken code is refused.
    unique: [{ columns: ['code'], loser: 'refuse' }],
  },

  // Sales: an invoice is written whole, with its lines, discounts and payments, at one site.
  invoices: {
    role: 'replicated',
    key: ['id'],
    // One key at two sites means a request retried at another box, which recorded the sale as well:
    // both sales were made, so both are kept and the later loses its key (it only guards retries).
    unique: [{ columns: ['staff_user_id', 'idempotency_key'], loser: 'clear' }],
  },
  invoice_line_items: {
    role: 'replicated',
    key: ['id'],
    // Written only with their invoice, at the site that allocated its id: never given twice.
    unique: [{ columns: ['invoice_id', 'position'], loser: 'refuse' }],
  },
  invoice_discounts: {
    role: 'replicated',
    key: ['id'],
    // Written only with their invoice, as its lines are.
    unique: [{ columns: ['invoice_id', 'position'], loser: 'refuse' }],
  },
  payments: {
    role: 'replicated',
    key: ['id'],
    // Each refund adds to it, and two sites may refund one payment while apart.
    counters: ['amount_refunded_cents'],
  },
  refunds: byId,
  gifts: {
    role: 'replicated',
    key: ['id'],
    unique: [
      // Random codes, so two sites giving one is unlikely, not impossible.
      { columns: ['code'], loser: 'refuse' },
      // One gift per line, written with the line at the site that allocated its id: never twice.
      { columns: ['invoice_line_item_id'], loser: 'refuse' },
    ],
  },

  // Check-ins.
  check_ins: byId,

  // Webhooks: the configuration is the organization's; each site delivers its own check-ins.
  webhooks: byId,
  webhook_events: { role: 'local', why: "the outbox of this site's check-ins, delivered from here" },
  webhook_deliveries: { role: 'local', why: "this site's delivery attempts of its own webhook events" },

  // The payments list's search (FTS5) and the tables SQLite keeps it in.
  invoice_search: { role: 'derived', why: 'kept by triggers on invoices and customers (migration 0008)' },
  invoice_search_config: { role: 'derived', why: "FTS5's storage of invoice_search" },
  invoice_search_data: { role: 'derived', why: "FTS5's storage of invoice_search" },
  invoice_search_docsize: { role: 'derived', why: "FTS5's storage of invoice_search" },
  invoice_search_idx: { role: 'derived', why: "FTS5's storage of invoice_search" },

  // The revenue metric's entries.
  revenue_entries: { role: 'derived', why: 'kept by triggers on payments and refunds (migration 0011)' },

  // The membership rollup: counts per day, kept by src/core/membership-rollup/'s catch-up.
  membership_holdings: { role: 'derived', why: 'the membership rollup' },
  membership_day_counts: { role: 'derived', why: 'the membership rollup' },
  member_holding_sets: { role: 'derived', why: 'the membership rollup' },
  member_holding_set_items: { role: 'derived', why: 'the membership rollup' },
  member_day_counts: { role: 'derived', why: 'the membership rollup' },
  add_on_day_counts: { role: 'derived', why: 'the membership rollup' },
  // Derived, not local: it says how far the tables beside it are rolled, so it goes where they go.
  membership_rollup_state: { role: 'derived', why: "the membership rollup's progress over its rows" },

  // The check-in metrics' tables, kept by src/core/metrics/tables/'s catch-up and triggers on check_ins.
  check_in_local_times: { role: 'derived', why: "the check-in metrics' catch-up" },
  check_in_day_counts: { role: 'derived', why: "the check-in metrics' catch-up" },
  product_first_uses: { role: 'derived', why: "the check-in metrics' catch-up" },
  customer_first_visit_days: { role: 'derived', why: "the check-in metrics' catch-up" },
  same_day_check_ins: { role: 'derived', why: "the check-in metrics' catch-up" },
  // Derived, not local: it says which check-ins the tables beside it have counted.
  check_in_metrics_state: { role: 'derived', why: "the check-in metrics' progress over the check-ins" },
  check_in_metrics_late: { role: 'derived', why: 'check-ins applied below that progress, for the catch-up' },

  // The box itself.
  // It describes this file's schema: a change carries its level instead.
  schema_migrations: { role: 'local', why: 'the migrations applied to this database file' },
  sync_state: syncState,
  sync_outbox: syncState,
  sync_applied: syncState,
  sync_clocks: syncState,
  // `belay import`'s progress: how far this file's copy from another server has come.
  import_progress: { role: 'local', why: "how far belay import's copy into this file has come" },
  // Every site records the same conflicts as it applies the same stream: never sent.
  sync_conflicts: { role: 'derived', why: 'recorded by every site as it applies the stream' },
} as const satisfies Declarations

export type TableName = keyof typeof TABLES

/** SQLite's own tables (AUTOINCREMENT's counters, ANALYZE's statistics): never declared, never sent. */
export const isSqliteOwnTable = (name: string): boolean => name.startsWith('sqlite_')

/** The declaration of `name`, or undefined when it has none. */
export function tableDeclaration(name: string): TableDeclaration | undefined {
  return Object.hasOwn(TABLES, name) ? (TABLES as Record<string, TableDeclaration>)[name] : undefined
}

export interface NamedReplicatedTable extends ReplicatedTable {
  readonly name: string
}

/** The replicated tables, by name. */
export function replicatedTables(): NamedReplicatedTable[] {
  return Object.entries(TABLES as Record<string, TableDeclaration>)
    .flatMap(([name, table]) => (table.role === 'replicated' ? [{ name, ...table }] : []))
    .sort((a, b) => a.name.localeCompare(b.name))
}

/** The names of the tables declared with `role`, in name order. */
export function tablesWithRole(role: TableRole): string[] {
  return Object.entries(TABLES as Record<string, TableDeclaration>)
    .filter(([, table]) => table.role === role)
    .map(([name]) => name)
    .sort()
}

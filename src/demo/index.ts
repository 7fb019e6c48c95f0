import type { Db } from '../db/connection.ts'
import type { MembershipStatus } from '../db/schema.ts'
import { recountCheckInMetrics } from '../core/metrics/tables/check-in-catch-up.ts'
import { ALL_STATUSES } from '../domain/membership-status.ts'
import { hashSecret } from '../core/auth/passwords.ts'
import { rebuildRevenueEntries } from '../core/metrics/tables/revenue-entries.ts'
import { rebuildInvoiceSearch } from '../core/sales/invoice-search.ts'
import { Calendar } from './calendar.ts'
import type { CheckInPlan } from './check-in-rows.ts'
import { startCheckIns, withCheckInsFile } from './check-in-thread.ts'
import { buildCheckIns } from './check-ins.ts'
import {
  type DemoContext,
  type DemoSize,
  type DemoTable,
  emptyRows,
  Ids,
  INSERT_ORDER,
  PROFILES,
} from './context.ts'
import { buildAlerts, buildCareRecords, buildDocuments, buildRelations } from './customer-records.ts'
import { buildPeople, customerRows } from './customers.ts'
import { buildEntryPasses } from './entry-passes.ts'
import { buildEvents } from './events.ts'
import { buildMemberships } from './memberships.ts'
import { DEMO_ADMIN_EMAIL, DEMO_ORGANIZATION, DEMO_PASSWORD, seedVenue } from './organization.ts'
import { buildCatalog } from './products.ts'
import { streamFor } from './random.ts'
import { buildSales } from './sales.ts'
import { buildWalls } from './walls.ts'
import {
  copyTable,
  countAllCustomers,
  insertRows,
  tableDefinition,
  withAttached,
  withBulkLoadSettings,
  withoutIndexes,
  withoutTriggers,
} from './store.ts'

export { DEMO_ADMIN_EMAIL, DEMO_ORGANIZATION, DEMO_PASSWORD } from './organization.ts'
export { PROFILES, type DemoSize } from './context.ts'

/** The database already has customers: the demo only fills an empty one. */
export class DemoDataRefused extends Error {}

export interface DemoOptions {
  size: DemoSize
  /**
   * Same seed and same `now`: the same rows (staff password hashes aside: argon2 salts them, though
   * one process reuses its hash).
   */
  seed: number
  /** The moment the demo is built around (events under way, dates relative to it); default: now. */
  now?: Date
  /** The staff accounts' password; default DEMO_PASSWORD. */
  password?: string
  /** Told each step as it is done (rows generated, then each table inserted), for a progress display. */
  onProgress?: (step: string) => void
}

export interface DemoSummary {
  size: DemoSize
  seed: number
  organization: { name: string; timeZone: string }
  gyms: string[]
  staffUsers: number
  /** The demo admin's login; `created` is false when that account already existed (password kept). */
  admin: { email: string; password: string; created: boolean }
  /** Rows written per table. */
  counts: Record<DemoTable, number>
  membershipsByStatus: Record<MembershipStatus, number>
  /** Climbs still up (the rest of `counts.climbs` are stripped). */
  climbsUp: number
}

/**
 * Fills a database that has no customers yet with a believable climbing-gym organization: gyms,
 * staff, products, customers and their records, memberships in every status with their history,
 * entry passes, events around `now`, the sales of all of it, five years of check-ins, and two
 * years of route setting (grades, sections, climbs set and stripped by the gyms' setters). One
 * transaction; rows go in as multi-row INSERTs, so the large set takes seconds, while a worker
 * makes and writes the check-ins at the same time (check-in-thread.ts). Throws DemoDataRefused,
 * changing nothing, when there are customers.
 */
export async function seedDemoData(db: Db, options: DemoOptions): Promise<DemoSummary> {
  const profile = PROFILES[options.size]
  if (!profile) throw new Error(`unknown demo size ${String(options.size)}`)
  await refuseUnlessEmpty(db)
  const password = options.password ?? DEMO_PASSWORD
  // Hashed before the transaction opens: argon2 is deliberately slow and SQLite has one writer.
  const passwordHash = await demoHash(password)
  const cal = new Calendar(DEMO_ORGANIZATION.timeZone, options.now ?? new Date())

  return withCheckInsFile((checkInsPath) =>
    withBulkLoadSettings(db, () =>
      withAttached(db, checkInsPath, CHECK_INS_SCHEMA, () =>
        db.transaction().execute(async (trx) => {
          await refuseUnlessEmpty(trx)
          const venue = await seedVenue(
            trx,
            cal,
            profile,
            streamFor(options.seed, 'staff'),
            streamFor(options.seed, 'setters'),
            passwordHash,
          )
          const ctx: DemoContext = {
            size: options.size,
            profile,
            seed: options.seed,
            cal,
            ids: await Ids.load(trx),
            gyms: venue.gyms,
            staff: venue.staff,
            milestones: venue.milestones,
            rows: emptyRows(),
          }
          const now = () => performance.timeOrigin + performance.now()
          const started = now()
          const n = (count: number) => count.toLocaleString('en-US')
          const elapsed = (at = now()) => `${((at - started) / 1000).toFixed(1)} s`
          const plan = generate(ctx)
          const counts = Object.fromEntries(
            INSERT_ORDER.map((t) => [t, t === 'check_ins' ? plan.count : ctx.rows[t].length]),
          ) as Record<DemoTable, number>
          const byStatus = Object.fromEntries(ALL_STATUSES.map((s) => [s, 0])) as Record<
            MembershipStatus,
            number
          >
          for (const m of ctx.rows.customer_memberships) byStatus[m.status]++
          const climbsUp = ctx.rows.climbs.filter((c) => c.stripped_date === null).length
          const total = INSERT_ORDER.reduce((sum, table) => sum + counts[table], 0)
          options.onProgress?.(`generated ${n(total)} rows (${elapsed()})`)
          const checkIns = startCheckIns(
            plan,
            { path: checkInsPath, table: await tableDefinition(trx, 'check_ins') },
            (written, at) =>
              options.onProgress?.(`made ${n(written)} of ${n(plan.count)} check_ins (${elapsed(at)})`),
          )
          try {
            const triggers = SALES_DERIVED_TABLES.flatMap((derived) => derived.triggers)
            await withoutIndexes(trx, TABLES_HERE, () =>
              withoutTriggers(trx, triggers, async () => {
                for (const table of TABLES_HERE) {
                  await insertRows(trx, table, ctx.rows[table])
                  // Written: the rows can go, so the large set's biggest tables are not all held at once.
                  ctx.rows[table] = []
                  // Only the big tables take long enough to be worth a line of their own.
                  if (counts[table] >= 10_000)
                    options.onProgress?.(`inserted ${n(counts[table])} ${table} (${elapsed()})`)
                }
              }),
            )
            for (const derived of SALES_DERIVED_TABLES) {
              await derived.rebuild(trx)
              options.onProgress?.(`wrote ${derived.table} (${elapsed()})`)
            }
            // The worker has had all of the above to make and write the check-ins.
            await checkIns.written
            await withoutIndexes(trx, ['check_ins'], async () => {
              await copyTable(trx, 'check_ins', CHECK_INS_SCHEMA)
              options.onProgress?.(`inserted ${n(plan.count)} check_ins (${elapsed()})`)
            })
            options.onProgress?.(`built the check-ins' indexes (${elapsed()})`)
            // The check-in metrics' tables have no insert trigger: their catch-up counts every
            // check-in at once.
            await recountCheckInMetrics(trx)
            options.onProgress?.(`wrote the check-in metrics' tables (${elapsed()})`)

            return {
              size: options.size,
              seed: options.seed,
              organization: { ...DEMO_ORGANIZATION },
              gyms: venue.gyms.map((g) => g.name),
              staffUsers: venue.staffCount,
              admin: { email: DEMO_ADMIN_EMAIL, password, created: venue.adminCreated },
              counts,
              membershipsByStatus: byStatus,
              climbsUp,
            }
          } finally {
            checkIns.stop()
          }
        }),
      ),
    ),
  )
}

/**
 * The generators in dependency order. Holdings, sales and check-ins run before the customer rows
 * because they may move a customer's created date back to the first thing the customer held,
 * bought or came in on, and the check-ins give each customer their count and first visit.
 */
function generate(ctx: DemoContext): CheckInPlan {
  const catalog = buildCatalog(ctx)
  const { people, households } = buildPeople(ctx)
  const holdings = buildMemberships(ctx, catalog, households)
  buildEntryPasses(ctx, people, catalog, holdings)
  buildEvents(ctx, people, catalog)
  buildRelations(ctx, households)
  buildDocuments(ctx, people, holdings)
  buildAlerts(ctx, people)
  buildCareRecords(ctx, people, catalog)
  buildSales(ctx, people, catalog, holdings)
  const checkIns = buildCheckIns(ctx, people, holdings)
  customerRows(ctx, people)
  buildWalls(ctx)
  return checkIns
}

/** The tables this thread writes row by row; the check-ins come from the worker's file. */
const TABLES_HERE = INSERT_ORDER.filter((table) => table !== 'check_ins')

/** Where the worker's check-ins file is attached. */
const CHECK_INS_SCHEMA = 'demo_check_ins'

/**
 * The tables that triggers keep from the sales the demo writes, with those triggers and the one
 * statement that writes the whole table from the finished rows: the load runs without the
 * triggers, each of which would do its work once per row, and each table is written after it.
 */
const SALES_DERIVED_TABLES: { table: string; triggers: string[]; rebuild: (db: Db) => Promise<void> }[] = [
  { table: 'invoice_search', triggers: ['invoice_search_insert'], rebuild: rebuildInvoiceSearch },
  {
    table: 'revenue_entries',
    triggers: ['revenue_entries_payment', 'revenue_entries_refund'],
    rebuild: rebuildRevenueEntries,
  },
]

/**
 * One argon2 hash per password per process: the password is public, so reusing its hash costs
 * nothing, and a process that seeds several databases (the tests) saves a second each time.
 */
const hashes = new Map<string, Promise<string>>()
const demoHash = (password: string): Promise<string> => {
  let hash = hashes.get(password)
  if (!hash) hashes.set(password, (hash = hashSecret(password)))
  return hash
}

async function refuseUnlessEmpty(db: Db): Promise<void> {
  const customers = await countAllCustomers(db)
  if (customers > 0)
    throw new DemoDataRefused(
      `the database already has ${customers} customer${customers === 1 ? '' : 's'}: demo data goes only into an empty one`,
    )
}

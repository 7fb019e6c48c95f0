/**
 * `seedDemoData`: the small set's shape (every status, the member convention, consistent history,
 * the product and customer variety the issue lists), determinism, refusal on a non-empty
 * database, and one run of the large set for its minimum sizes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Selectable } from 'kysely'
import { ensureOrganization } from '../../src/bootstrap.ts'
import {
  DEMO_ADMIN_EMAIL,
  DEMO_ORGANIZATION,
  DEMO_PASSWORD,
  DemoDataRefused,
  seedDemoData,
  type DemoSummary,
} from '../../src/demo/index.ts'
import { INSERT_ORDER } from '../../src/demo/context.ts'
import { ALL_STATUSES } from '../../src/domain/membership-status.ts'
import { openDatabase, type Connection, type Db } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import type { Database, RelationCode } from '../../src/db/schema.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { START } from '../helpers/app.ts'
import { countRows } from '../helpers/factories.ts'

const NOW = new Date(START)
/** START (15:04Z) is 08:04 in Denver on the same day. */
const TODAY = '2026-11-22'

const open: Connection[] = []
async function freshDb(): Promise<Db> {
  const connection = openDatabase(':memory:')
  open.push(connection)
  await migrateToLatest(connection.db)
  return connection.db
}
afterAll(async () => {
  for (const c of open) await c.close()
})

/** A table's rows by id (typed as that table's rows). */
const rows = <
  T extends Exclude<
    keyof Database,
    'membership_member_add_ons' | 'customer_document_files' | 'event_type_categories' | 'climb_setters'
  >,
>(
  db: Db,
  table: T,
): Promise<Selectable<Database[T]>[]> =>
  db
    .selectFrom(table as 'customers')
    .selectAll()
    .orderBy('id')
    .execute() as Promise<never>

describe('the small demo', () => {
  let db: Db
  let summary: DemoSummary
  beforeAll(async () => {
    db = await freshDb()
    summary = await seedDemoData(db, { size: 'small', seed: 1, now: NOW })
  })

  test('has an organization in America/Denver with two gyms and staff for each role', async () => {
    const org = await db.selectFrom('organization').selectAll().executeTakeFirstOrThrow()
    expect(org).toMatchObject({ name: DEMO_ORGANIZATION.name, time_zone: 'America/Denver' })
    const gyms = await db.selectFrom('gyms').select(['name', 'time_zone']).orderBy('id').execute()
    expect(gyms).toEqual([
      { name: 'Granite Peak Denver', time_zone: 'America/Denver' },
      { name: 'Granite Peak Boulder', time_zone: 'America/Denver' },
    ])
    const staff = await db.selectFrom('staff_users').selectAll().orderBy('id').execute()
    const admin = staff.find((u) => u.email === DEMO_ADMIN_EMAIL)!
    expect(admin).toMatchObject({ is_organization_admin: 1, is_active: 1 })
    expect(await Bun.password.verify(DEMO_PASSWORD, admin.password_hash!)).toBe(true)
    const desk = staff.filter(
      (u) => u.can_manage_members && !u.is_organization_admin && !u.can_access_reports,
    )
    expect(desk.length).toBeGreaterThanOrEqual(4)
    expect(staff.some((u) => u.can_access_reports && !u.is_organization_admin)).toBe(true)
    expect(staff.some((u) => u.can_manage_events && !u.is_organization_admin && !u.can_manage_members)).toBe(
      true,
    )
    expect(summary.admin).toEqual({ email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD, created: true })
  })

  test('counts stay within the documented ranges and match the summary', async () => {
    const count = async (table: 'customers' | 'customer_memberships' | 'customer_entry_passes') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const customers = await count('customers')
    expect(customers).toBeGreaterThanOrEqual(150)
    expect(customers).toBeLessThanOrEqual(300)
    expect(summary.counts.customers).toBe(customers)
    const memberships = await count('customer_memberships')
    expect(memberships).toBeGreaterThanOrEqual(50)
    expect(memberships).toBeLessThanOrEqual(200)
    expect(summary.counts.customer_memberships).toBe(memberships)
    expect(await count('customer_entry_passes')).toBeGreaterThan(10)
  })

  test('memberships are in every status', async () => {
    const statuses = await db.selectFrom('customer_memberships').select('status').distinct().execute()
    expect(statuses.map((s) => s.status).sort()).toEqual([...ALL_STATUSES].sort())
    for (const status of ALL_STATUSES) expect(summary.membershipsByStatus[status]).toBeGreaterThan(0)
  })

  test('customers have unique barcodes, realistic names, adults and children', async () => {
    const customers = await rows(db, 'customers')
    const barcodes = customers.map((c) => c.barcode).filter((b) => b !== null)
    expect(new Set(barcodes).size).toBe(barcodes.length)
    expect(barcodes.length).toBeGreaterThan(customers.length * 0.9)
    expect(customers.every((c) => c.first_name && c.last_name && /^\d{4}-\d\d-\d\d$/.test(c.birthday))).toBe(
      true,
    )
    const kids = customers.filter((c) => c.birthday > '2008-11-22')
    expect(kids.length).toBeGreaterThan(10)
    expect(customers.length - kids.length).toBeGreaterThan(kids.length)
    // Reserved example domains only: the demo never names a real mailbox.
    expect(customers.every((c) => c.email === null || /@example\.(com|org|net)$/.test(c.email))).toBe(true)
    expect(customers.filter((c) => c.home_location_id !== null).length).toBeGreaterThan(
      customers.length * 0.9,
    )
  })

  test('every membership has member rows: the owner alone when solo, each covered person when group', async () => {
    const memberships = await db
      .selectFrom('customer_memberships')
      .innerJoin('membership_types', 'membership_types.id', 'customer_memberships.membership_type_id')
      .select(['customer_memberships.id', 'owner_id', 'is_group'])
      .execute()
    const members = await db.selectFrom('membership_members').selectAll().execute()
    const relations = await db
      .selectFrom('customer_relations')
      .select(['customer_id', 'related_customer_id'])
      .execute()
    const related = new Set(relations.map((r) => `${r.customer_id}:${r.related_customer_id}`))
    let groups = 0
    for (const m of memberships) {
      const covered = members.filter((r) => r.customer_membership_id === m.id).map((r) => r.customer_id)
      if (!m.is_group) {
        expect(covered).toEqual([m.owner_id])
        continue
      }
      groups++
      expect(covered.length).toBeGreaterThanOrEqual(1)
      // A group covers the owner's household: each covered person is the owner or related to them.
      for (const c of covered) expect(c === m.owner_id || related.has(`${m.owner_id}:${c}`)).toBe(true)
    }
    expect(groups).toBeGreaterThan(3)
  })

  test('status history starts from null and walks to the current status on organization-local days', async () => {
    const memberships = await rows(db, 'customer_memberships')
    const changes = await rows(db, 'membership_status_changes')
    for (const m of memberships) {
      const own = changes.filter((c) => c.customer_membership_id === m.id && c.member_customer_id === null)
      expect(own[0]!.from_status).toBeNull()
      own.slice(1).forEach((c, i) => {
        expect(c.from_status).toBe(own[i]!.to_status)
        expect(c.changed_on >= own[i]!.changed_on).toBe(true)
      })
      expect(own.at(-1)!.to_status).toBe(m.status)
      for (const c of own) expect(c.changed_on <= TODAY).toBe(true)
      // Not-yet-started memberships were created before they start; the rest began on day one.
      if (m.status !== 'PAY' && m.status !== 'IPC') expect(own[0]!.changed_on).toBe(m.start_date)
    }
    expect(changes.some((c) => c.changed_on === TODAY)).toBe(true)
  })

  test('some members of active group memberships are frozen on their own, with a history row', async () => {
    const frozen = await db
      .selectFrom('membership_members')
      .innerJoin(
        'customer_memberships',
        'customer_memberships.id',
        'membership_members.customer_membership_id',
      )
      .select(['customer_membership_id', 'customer_id', 'status'])
      .where('is_frozen', '=', 1)
      .execute()
    expect(frozen.length).toBeGreaterThan(0)
    for (const f of frozen) {
      expect(f.status).toBe('ACT')
      const history = await db
        .selectFrom('membership_status_changes')
        .select(['from_status', 'to_status'])
        .where('customer_membership_id', '=', f.customer_membership_id)
        .where('member_customer_id', '=', f.customer_id)
        .execute()
      expect(history).toEqual([{ from_status: 'ACT', to_status: 'FRZ' }])
    }
  })

  test('memberships carry add-ons, mixed payment methods and billing amounts', async () => {
    const addOns = await db.selectFrom('membership_member_add_ons').select('add_on_id').execute()
    expect(addOns.length).toBeGreaterThan(0)
    const memberships = await rows(db, 'customer_memberships')
    const methods = new Set(memberships.map((m) => m.has_payment_method))
    expect(methods).toEqual(new Set([0, 1]))
    expect(memberships.some((m) => m.status === 'ACT' && m.billing_amount_cents > 0)).toBe(true)
    expect(
      memberships
        .filter((m) => ['CAN', 'END', 'DEN'].includes(m.status))
        .every((m) => m.billing_amount_cents === 0),
    ).toBe(true)
  })

  test('the catalog has recurring, prepaid, group, youth, off-peak and retired memberships, add-ons and passes', async () => {
    const types = await rows(db, 'membership_types')
    const intervals = new Set(types.map((t) => t.interval))
    for (const interval of ['MON', 'YRL', 'WEE', 'FWK', 'BWK', 'QUA', 'HYR'])
      expect(intervals.has(interval as never)).toBe(true)
    expect(
      types
        .filter((t) => t.purchase_type === 'PRE' && t.status === 'ACT')
        .map((t) => [t.duration_years, t.duration_months, t.duration_days]),
    ).toEqual([
      [null, null, 30],
      [null, 3, null],
      [1, null, null],
    ])
    expect(types.some((t) => t.is_group)).toBe(true)
    expect(types.some((t) => t.is_youth_programming)).toBe(true)
    expect(types.filter((t) => t.status === 'RET')).toHaveLength(1)
    const offPeak = types.find((t) => t.access_hours !== null)!
    const hours = JSON.parse(offPeak.access_hours!)
    expect(hours[0]).toEqual({ day: 'MON', start: '06:00', end: '16:00' })
    for (const w of hours) expect(Object.keys(w).sort()).toEqual(['day', 'end', 'start'])
    expect(
      (await db.selectFrom('add_ons').select('name').orderBy('name').execute()).map((a) => a.name),
    ).toEqual(['Fitness Classes', 'Gear Rental', 'Locker Rental', 'Towel Service', 'Yoga Classes'])
    const passes = await rows(db, 'entry_pass_types')
    expect(passes.map((p) => [p.number_of_entries, p.valid_days, p.status])).toEqual([
      [1, null, 'ACT'],
      [1, null, 'ACT'],
      [5, 180, 'ACT'],
      [10, 365, 'ACT'],
      [20, 365, 'RET'],
    ])
  })

  test('waivers: some valid, some expired, some that never expire, and customers without one', async () => {
    const waivers = await db
      .selectFrom('customer_documents')
      .selectAll()
      .where('kind', '=', 'waiver')
      .execute()
    expect(waivers.some((w) => w.expiration_date === null)).toBe(true)
    expect(waivers.some((w) => w.expiration_date !== null && w.expiration_date < TODAY)).toBe(true)
    expect(waivers.some((w) => w.expiration_date !== null && w.expiration_date >= TODAY)).toBe(true)
    const signed = new Set(waivers.map((w) => w.customer_id))
    expect(summary.counts.customers - signed.size).toBeGreaterThan(0)
  })

  test('alerts include active ones that prevent check-in', async () => {
    const alerts = await rows(db, 'customer_alerts')
    expect(alerts.some((a) => a.prevents_check_in === 1 && a.is_active === 1)).toBe(true)
    expect(alerts.some((a) => a.prevents_check_in === 0)).toBe(true)
  })

  test('relations come in mirrored pairs, as the relations API writes them', async () => {
    const relations = await rows(db, 'customer_relations')
    const mirror: Record<RelationCode, RelationCode> = {
      PRE: 'CHI',
      CHI: 'PRE',
      GUA: 'WAR',
      WAR: 'GUA',
      SPO: 'SPO',
      PRT: 'PRT',
      SIB: 'SIB',
      OTH: 'OTH',
    }
    const byPair = new Map<string, RelationCode>(
      relations.map((r) => [`${r.customer_id}:${r.related_customer_id}`, r.relation]),
    )
    for (const r of relations)
      expect(byPair.get(`${r.related_customer_id}:${r.customer_id}`)).toBe(mirror[r.relation])
    const codes = new Set(relations.map((r) => r.relation))
    for (const code of ['SPO', 'PRE', 'CHI', 'SIB']) expect(codes.has(code as never)).toBe(true)
  })

  test('entry passes: some used up, some expired, some bought by someone else', async () => {
    const passes = await rows(db, 'customer_entry_passes')
    expect(passes.some((p) => p.entries_remaining === 0)).toBe(true)
    expect(passes.some((p) => p.expiry_date !== null && p.expiry_date < TODAY)).toBe(true)
    expect(passes.some((p) => p.purchaser_id !== null && p.purchaser_id !== p.owner_id)).toBe(true)
    expect(passes.every((p) => p.entries_remaining >= 0 && p.entries_remaining <= p.entries_total)).toBe(true)
  })

  test("each gym's event types: weekly classes, a course and an open session, filed under the categories", async () => {
    const filed = await db
      .selectFrom('event_types as t')
      .leftJoin('event_type_categories as l', 'l.event_type_id', 't.id')
      .leftJoin('event_categories as c', 'c.id', 'l.event_category_id')
      .select([
        't.name',
        't.schedule_type',
        sql<string>`coalesce(group_concat(c.name, ', ' ORDER BY c.name), '')`.as('categories'),
      ])
      .where('t.gym_id', '=', 1)
      .groupBy('t.id')
      .orderBy('t.id')
      .execute()
    expect(filed).toEqual([
      { name: 'Yoga for Climbers', schedule_type: 'recurring', categories: 'Fitness' },
      { name: 'Intro to Bouldering', schedule_type: 'recurring', categories: 'Instruction' },
      { name: 'Learn to Belay', schedule_type: 'multi_part', categories: 'Instruction' },
      { name: 'Youth Team Practice', schedule_type: 'recurring', categories: 'Fitness, Youth' },
      { name: 'Technique Clinic', schedule_type: 'rolling', categories: 'Instruction' },
      { name: 'Outdoor Trip: Eldorado Canyon', schedule_type: 'recurring', categories: 'Community' },
    ])
    // Seven links at each of the two gyms.
    expect(await countRows(db, 'event_type_categories')).toBe(14)
  })

  test('every gym has an event under way at `now` with reservations, and events around it', async () => {
    const now = NOW.toISOString()
    const current = await db
      .selectFrom('events')
      .select(['id', 'gym_id'])
      .where('start_at', '<=', now)
      .where('end_at', '>', now)
      .where('is_cancelled', '=', 0)
      .execute()
    expect(new Set(current.map((e) => e.gym_id)).size).toBe(2)
    for (const e of current) {
      const held = await db
        .selectFrom('reservations')
        .select('id')
        .where('event_id', '=', e.id)
        .where('is_cancelled', '=', 0)
        .execute()
      expect(held.length).toBeGreaterThan(0)
    }
    const events = await rows(db, 'events')
    expect(events.some((e) => e.end_at < now)).toBe(true)
    expect(events.some((e) => e.start_at > now)).toBe(true)
  })

  test('a second seeding is refused and changes nothing', async () => {
    const before = summary.counts.customers
    const attempt = seedDemoData(db, { size: 'small', seed: 2, now: NOW })
    await expect(attempt).rejects.toBeInstanceOf(DemoDataRefused)
    await expect(attempt).rejects.toThrow(`the database already has ${before} customers`)
    const after = await db
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(before)
  })
})

describe('determinism', () => {
  /** Every table the demo writes, in a stable order. */
  async function dump(db: Db) {
    const tables: Record<string, unknown[]> = {}
    for (const table of ['organization', 'gyms', 'staff_users', ...INSERT_ORDER] as const) {
      tables[table] =
        table === 'membership_member_add_ons'
          ? await db.selectFrom(table).selectAll().orderBy(['membership_member_id', 'add_on_id']).execute()
          : table === 'event_type_categories'
            ? await db
                .selectFrom(table)
                .selectAll()
                .orderBy('event_type_id')
                .orderBy('event_category_id')
                .execute()
            : table === 'climb_setters'
              ? await db.selectFrom(table).selectAll().orderBy('climb_id').orderBy('staff_user_id').execute()
              : await rows(db, table)
    }
    return tables
  }

  test('the same seed and `now` give identical rows in every table; another seed differs', async () => {
    const [a, b, c] = [await freshDb(), await freshDb(), await freshDb()]
    await seedDemoData(a, { size: 'small', seed: 42, now: NOW })
    await seedDemoData(b, { size: 'small', seed: 42, now: NOW })
    await seedDemoData(c, { size: 'small', seed: 43, now: NOW })
    const [first, second, other] = [await dump(a), await dump(b), await dump(c)]
    // Password hashes are salted; within one process the demo reuses its hash, so even they match.
    expect(second).toEqual(first)
    expect(first.customers!.length).toBeGreaterThan(0)
    expect(other.customers).not.toEqual(first.customers)
    expect(other.customer_memberships).not.toEqual(first.customer_memberships)
    expect(first.climbs!.length).toBeGreaterThan(0)
    expect(other.climbs).not.toEqual(first.climbs)
  }, 30_000)
})

describe('after a first start', () => {
  test('uses the existing organization and admin, renaming its gym and adding the rest', async () => {
    const db = await freshDb()
    await ensureOrganization(db, fixedClock(START), {
      adminEmail: DEMO_ADMIN_EMAIL,
      adminPassword: 'first-start-password',
      gymName: 'My Gym',
      timeZone: 'UTC',
    })
    const summary = await seedDemoData(db, { size: 'small', seed: 1, now: NOW })
    expect(summary.admin.created).toBe(false)
    expect(await db.selectFrom('gyms').select(['id', 'name', 'time_zone']).orderBy('id').execute()).toEqual([
      { id: 1, name: 'Granite Peak Denver', time_zone: 'America/Denver' },
      { id: 2, name: 'Granite Peak Boulder', time_zone: 'America/Denver' },
    ])
    const org = await db.selectFrom('organization').select(['name', 'time_zone']).executeTakeFirstOrThrow()
    expect(org).toEqual({ name: DEMO_ORGANIZATION.name, time_zone: DEMO_ORGANIZATION.timeZone })
    const admins = await db
      .selectFrom('staff_users')
      .select('password_hash')
      .where('email', '=', DEMO_ADMIN_EMAIL)
      .execute()
    expect(admins).toHaveLength(1)
    expect(await Bun.password.verify('first-start-password', admins[0]!.password_hash!)).toBe(true)
  })
})

describe('in a database file', () => {
  test('the load leaves the connection as the app opens it: WAL, synced in full, foreign keys on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'belay-demo-'))
    const connection = openDatabase(join(dir, 'demo.sqlite3'))
    await migrateToLatest(connection.db)
    const settings = async () =>
      Object.fromEntries(
        await Promise.all(
          ['journal_mode', 'synchronous', 'foreign_keys', 'cache_size'].map(async (name) => {
            const { rows } = await sql<Record<string, unknown>>`PRAGMA ${sql.raw(name)}`.execute(
              connection.db,
            )
            return [name, rows[0]![name]]
          }),
        ),
      )
    const before = await settings()
    await seedDemoData(connection.db, { size: 'small', seed: 1, now: NOW })
    expect(await settings()).toEqual(before)
    expect(before).toMatchObject({ journal_mode: 'wal', synchronous: 2, foreign_keys: 1 })
    await connection.close()
    rmSync(dir, { recursive: true, force: true })
  })
})

describe("the check-ins' worker", () => {
  test('says how far the load has got, and leaves neither its file nor the file attached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'belay-demo-test-'))
    const saved = process.env.TMPDIR
    // The worker's file goes under the system's temporary directory: here, one of this test's own.
    process.env.TMPDIR = dir
    try {
      const db = await freshDb()
      const steps: string[] = []
      await seedDemoData(db, { size: 'small', seed: 1, now: NOW, onProgress: (step) => steps.push(step) })
      expect(steps.map((step) => step.replace(/ \(\d+\.\d s\)$/, ''))).toEqual([
        'generated 47,991 rows',
        'inserted 13,766 climbs',
        'inserted 17,634 climb_setters',
        'wrote invoice_search',
        'wrote revenue_entries',
        'inserted 11,294 check_ins',
        "built the check-ins' indexes",
        "wrote the check-in metrics' tables",
      ])
      expect(readdirSync(dir)).toEqual([])
      const { rows: schemas } = await sql<{ name: string }>`pragma database_list`.execute(db)
      expect(schemas.map((s) => s.name)).toEqual(['main'])
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the large demo', () => {
  test('has at least 20,000 customers, 6,000 memberships in every status and 300,000 payments', async () => {
    const db = await freshDb()
    const summary = await seedDemoData(db, { size: 'large', seed: 1, now: NOW })
    const count = async (table: 'customers' | 'customer_memberships') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await count('customers')).toBeGreaterThanOrEqual(20_000)
    expect(await count('customer_memberships')).toBeGreaterThanOrEqual(6_000)
    const payments = await db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(payments.n)).toBeGreaterThanOrEqual(300_000)
    expect(summary.counts.payments).toBe(Number(payments.n))
    for (const status of ALL_STATUSES) expect(summary.membershipsByStatus[status]).toBeGreaterThan(0)
    expect(summary.gyms).toHaveLength(3)
    // The climbs benchmark lists the biggest gym's climbs, up and stripped: at least 5,000 of them.
    const climbs = await db
      .selectFrom('climbs')
      .select(['gym_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('gym_id')
      .orderBy('gym_id')
      .execute()
    expect(climbs.map((c) => c.gym_id)).toEqual([1, 2, 3])
    expect(Math.max(...climbs.map((c) => Number(c.n)))).toBeGreaterThanOrEqual(5_000)
    expect(summary.counts.climbs).toBe(climbs.reduce((sum, c) => sum + Number(c.n), 0))
  }, 120_000)
})

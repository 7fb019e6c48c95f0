/**
 * The demo's check-ins: consistent with what customers hold (members only on days their
 * membership let them in, each pass's used entries, a check-in for each arrived reservation,
 * guests within their host's allowance), counted as the door counts them, in the organization's
 * zone and busier when a gym is busy, never after now, and the same rows for the same seed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql, type Selectable } from 'kysely'
import { milestoneText } from '../../src/core/door/milestones.ts'
import { seedDemoData, type DemoSummary } from '../../src/demo/index.ts'
import { openDatabase, type Connection, type Db } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import type { Database } from '../../src/db/schema.ts'
import { ACTIVE_STATUSES } from '../../src/domain/membership-status.ts'
import { localDate, localTimeOfDay, wallClock } from '../../src/lib/local-time.ts'
import { START } from '../helpers/app.ts'

const NOW = new Date(START)
const ZONE = 'America/Denver'
const MILESTONES = [1, 10, 25, 50, 100, 250, 500, 1000]

const open: Connection[] = []
afterAll(async () => {
  for (const c of open) await c.close()
})

/** The rows a query finds: each test's query names what breaks the rule, so the answer is none. */
const rowsOf = async <R>(db: Db, query: ReturnType<typeof sql<R>>): Promise<R[]> =>
  (await query.execute(db)).rows

describe("the small demo's check-ins", () => {
  let db: Db
  let summary: DemoSummary
  let checkIns: Selectable<Database['check_ins']>[]
  beforeAll(async () => {
    const connection = openDatabase(':memory:')
    open.push(connection)
    await migrateToLatest(connection.db)
    db = connection.db
    summary = await seedDemoData(db, { size: 'small', seed: 1, now: NOW })
    checkIns = await db.selectFrom('check_ins').selectAll().orderBy('id').execute()
  })

  test('the same seed gives these counts of each entry method, and every reference names a row', async () => {
    const byMethod = await rowsOf<{ entry_method: string; n: number }>(
      db,
      sql`select entry_method, count(*) as n from check_ins group by entry_method order by entry_method`,
    )
    expect({ total: summary.counts.check_ins, byMethod }).toEqual({
      total: 11294,
      byMethod: [
        { entry_method: 'ENT', n: 124 },
        { entry_method: 'EVE', n: 35 },
        { entry_method: 'FRE', n: 235 },
        { entry_method: 'GUE', n: 157 },
        { entry_method: 'MEM', n: 7301 },
        { entry_method: 'MIG', n: 3442 },
      ],
    })
    expect(checkIns.length).toBe(summary.counts.check_ins)
    expect(await rowsOf(db, sql`pragma foreign_key_check(check_ins)`)).toEqual([])
    expect(await db.selectFrom('webhook_events').select('id').execute()).toEqual([])
  })

  test('a member checks in only on a day the membership let them in: begun, active that day, not frozen on their own', async () => {
    const outside = await rowsOf(
      db,
      sql`
        select c.id from check_ins c join customer_memberships m on m.id = c.customer_membership_id
        join membership_types t on t.id = m.membership_type_id
        where c.entry_method = 'MEM' and (
          c.local_date < m.start_date
          or (t.purchase_type <> 'REC' and m.end_date is not null and c.local_date > m.end_date)
          or not exists (select 1 from membership_members mm
                         where mm.customer_membership_id = m.id and mm.customer_id = c.customer_id)
          or exists (select 1 from membership_status_changes f
                     where f.customer_membership_id = m.id and f.member_customer_id = c.customer_id
                       and f.to_status = 'FRZ' and f.changed_on <= c.local_date)
          or coalesce((select s.to_status from membership_status_changes s
                       where s.customer_membership_id = m.id and s.member_customer_id is null
                         and s.changed_on <= c.local_date
                       order by s.changed_on desc, s.id desc limit 1), '') not in (${sql.join(ACTIVE_STATUSES)})
        )`,
    )
    expect(outside).toEqual([])
    const members = await rowsOf<{ n: number }>(
      db,
      sql`select count(*) as n from check_ins where entry_method = 'MEM' and customer_membership_id is not null`,
    )
    expect(members[0]!.n).toBe(checkIns.filter((c) => c.entry_method === 'MEM').length)
  })

  test("a pass's check-ins are its used entries, within its validity, each saying what is left", async () => {
    const mismatched = await rowsOf(
      db,
      sql`
        select p.id from customer_entry_passes p
        where p.entries_total - p.entries_remaining <>
          (select count(*) from check_ins c where c.customer_entry_pass_id = p.id and c.entry_method = 'ENT')
        union all
        select c.id from check_ins c join customer_entry_passes p on p.id = c.customer_entry_pass_id
        where c.customer_id <> p.owner_id or c.created_at < p.created_at
          or (p.expiry_date is not null and c.local_date > p.expiry_date)`,
    )
    expect(mismatched).toEqual([])
    const used = await rowsOf<{ n: number }>(
      db,
      sql`select sum(entries_total - entries_remaining) as n from customer_entry_passes`,
    )
    expect(checkIns.filter((c) => c.entry_method === 'ENT').length).toBe(used[0]!.n)
    // The last entry taken leaves what the pass row says is left.
    const lastDescriptions = await rowsOf<{ description: string; remaining: number }>(
      db,
      sql`
        select c.entry_method_description as description, p.entries_remaining as remaining
        from check_ins c join customer_entry_passes p on p.id = c.customer_entry_pass_id
        where c.id = (select max(id) from check_ins l where l.customer_entry_pass_id = p.id)`,
    )
    for (const d of lastDescriptions) expect(d.description).toEndWith(`(${d.remaining} remaining)`)
  })

  test('a reservation that arrived for an event including entry has one EVE check-in at its start; no other does', async () => {
    const wrong = await rowsOf(
      db,
      sql`
        select c.id from check_ins c join reservations r on r.id = c.reservation_id
        join events e on e.id = r.event_id
        where c.entry_method = 'EVE' and (r.checked_in <> 1 or r.customer_id <> c.customer_id
          or e.includes_entry <> 1 or c.created_at <> e.start_at or c.gym_id <> e.gym_id)
        union all
        select r.id from reservations r join events e on e.id = r.event_id
        where r.checked_in = 1 and r.includes_entry = 1 and e.includes_entry = 1
          and (select count(*) from check_ins c where c.reservation_id = r.id) <> 1`,
    )
    expect(wrong).toEqual([])
    expect(checkIns.some((c) => c.entry_method === 'EVE')).toBe(true)
  })

  test("guests come with a host whose membership grants guest passes, within the month's allowance; free entries name why and who", async () => {
    const wrong = await rowsOf(
      db,
      sql`
        select c.id from check_ins c join customer_memberships m on m.id = c.customer_membership_id
        join membership_types t on t.id = m.membership_type_id
        where c.entry_method = 'GUE' and (t.guest_passes_per_month = 0
          or c.customer_id = c.host_customer_id
          or not exists (select 1 from membership_members mm
                         where mm.customer_membership_id = m.id and mm.customer_id = c.host_customer_id)
          or not exists (select 1 from check_ins h where h.customer_id = c.host_customer_id
                         and h.local_date = c.local_date and h.created_at < c.created_at))
        union all
        select max(c.id) from check_ins c join customer_memberships m on m.id = c.customer_membership_id
        join membership_types t on t.id = m.membership_type_id
        where c.entry_method = 'GUE'
        group by c.host_customer_id, substr(c.local_date, 1, 7)
        having count(*) > max(t.guest_passes_per_month)
        union all
        select id from check_ins where entry_method = 'FRE' and (free_entry_reason = ''
          or free_entry_granting_user_id is null or free_entry_granting_user_id <> checked_in_by_id)`,
    )
    expect(wrong).toEqual([])
    const host = checkIns.find((c) => c.entry_method === 'GUE')!
    const hostRow = await db
      .selectFrom('customers')
      .select(['first_name', 'last_name'])
      .where('id', '=', host.host_customer_id)
      .executeTakeFirstOrThrow()
    expect(host.entry_method_description).toBe(`Guest of ${hostRow.first_name} ${hostRow.last_name}`)
    expect(checkIns.find((c) => c.entry_method === 'FRE')!.entry_method_description).toBe('Free entry')
  })

  test('migrated check-ins are the years before the appliance, at both gyms, before anything else, naming no product or staff', async () => {
    const migrated = checkIns.filter((c) => c.entry_method === 'MIG')
    const others = checkIns.filter((c) => c.entry_method !== 'MIG')
    expect(migrated.length).toBeGreaterThan(0)
    expect(migrated.at(-1)!.local_date < others[0]!.local_date).toBe(true)
    const gyms = await db.selectFrom('gyms').select('id').orderBy('id').execute()
    expect([...new Set(migrated.map((c) => c.gym_id))].sort((a, b) => a - b)).toEqual(gyms.map((g) => g.id))
    expect(
      migrated.filter(
        (c) =>
          c.customer_membership_id !== null ||
          c.customer_entry_pass_id !== null ||
          c.checked_in_by_id !== null,
      ),
    ).toEqual([])
  })

  test("customers' counts and first check-ins are their rows'; each row has the running count and its milestones", async () => {
    const customers = await db
      .selectFrom('customers')
      .select(['id', 'check_in_count', 'first_check_in_timestamp', 'created_at'])
      .execute()
    const seen = new Map<number, { count: number; first: string }>()
    const wrong: unknown[] = []
    for (const c of checkIns) {
      const so = seen.get(c.customer_id) ?? { count: 0, first: c.created_at }
      so.count++
      seen.set(c.customer_id, so)
      const milestones = MILESTONES.includes(so.count) ? [milestoneText(so.count)] : []
      if (c.check_in_count !== so.count || c.milestone_list !== JSON.stringify(milestones)) wrong.push(c.id)
    }
    for (const customer of customers) {
      const mine = seen.get(customer.id)
      if (
        customer.check_in_count !== (mine?.count ?? 0) ||
        customer.first_check_in_timestamp !== (mine?.first ?? null) ||
        (mine && mine.first < customer.created_at)
      )
        wrong.push(customer)
    }
    expect(wrong).toEqual([])
    expect(checkIns.filter((c) => c.milestone_list !== '[]').length).toBeGreaterThan(seen.size)
  })

  test("each customer's first use of each product is their first check-in with it", async () => {
    const productOf = new Map<string, number>()
    for (const m of await db
      .selectFrom('customer_memberships')
      .select(['id', 'membership_type_id'])
      .execute())
      productOf.set(`MEM ${m.id}`, m.membership_type_id)
    for (const p of await db
      .selectFrom('customer_entry_passes')
      .select(['id', 'entry_pass_type_id'])
      .execute())
      productOf.set(`ENT ${p.id}`, p.entry_pass_type_id)
    const bookings = await db
      .selectFrom('reservations')
      .innerJoin('events', 'events.id', 'reservations.event_id')
      .select(['reservations.id', 'events.event_type_id'])
      .execute()
    for (const b of bookings) productOf.set(`EVE ${b.id}`, b.event_type_id)
    const types = { MEM: 'membership', ENT: 'entry_pass', EVE: 'event' } as const
    const expected = new Map<string, Selectable<Database['product_first_uses']>>()
    for (const c of checkIns) {
      if (c.entry_method !== 'MEM' && c.entry_method !== 'ENT' && c.entry_method !== 'EVE') continue
      const holding = c.customer_membership_id ?? c.customer_entry_pass_id ?? c.reservation_id
      const product = productOf.get(`${c.entry_method} ${holding}`)!
      const key = `${c.customer_id} ${types[c.entry_method]} ${product}`
      if (!expected.has(key))
        expected.set(key, {
          customer_id: c.customer_id,
          product_type: types[c.entry_method],
          product_id: product,
          used_at: c.created_at,
          customer_membership_id: c.entry_method === 'MEM' ? c.customer_membership_id : null,
        })
    }
    const firstUses = await db.selectFrom('product_first_uses').selectAll().execute()
    expect(expected.size).toBeGreaterThan(100)
    expect(new Map(firstUses.map((f) => [`${f.customer_id} ${f.product_type} ${f.product_id}`, f]))).toEqual(
      expected,
    )
  })

  test("each check-in's local_time is the zone's wall clock, and the per-day counts are the check-ins'", async () => {
    const zone = summary.organization.timeZone
    expect(checkIns.filter((c) => c.local_time !== localTimeOfDay(new Date(c.created_at), zone))).toEqual([])
    const expected = new Map<string, { check_ins: number; first_check_ins: number }>()
    for (const c of checkIns) {
      const key = `${c.local_date} ${c.gym_id} ${c.entry_method}`
      const day = expected.get(key) ?? { check_ins: 0, first_check_ins: 0 }
      expected.set(key, {
        check_ins: day.check_ins + 1,
        first_check_ins: day.first_check_ins + (c.check_in_count === 1 ? 1 : 0),
      })
    }
    const counted = await db
      .selectFrom('check_in_day_counts')
      .select([
        'local_date',
        'gym_id',
        'entry_method',
        sql<number>`sum(check_ins)`.as('check_ins'),
        sql<number>`sum(first_check_ins)`.as('first_check_ins'),
      ])
      .groupBy(['local_date', 'gym_id', 'entry_method'])
      .execute()
    expect(
      new Map(
        counted.map((d) => [
          `${d.local_date} ${d.gym_id} ${d.entry_method}`,
          { check_ins: d.check_ins, first_check_ins: d.first_check_ins },
        ]),
      ),
    ).toEqual(expected)
  })

  test("each customer's first two days of check-ins are the check-ins'", async () => {
    const daysOf = new Map<number, Set<string>>()
    for (const c of checkIns)
      daysOf.set(c.customer_id, (daysOf.get(c.customer_id) ?? new Set()).add(c.local_date))
    const expected = [...daysOf].map(([customer_id, days]) => {
      const [first_date, return_date = null] = [...days].sort()
      return { customer_id, first_date: first_date!, return_date }
    })
    const stored = await db.selectFrom('customer_first_visit_days').selectAll().execute()
    expect(expected.filter((d) => d.return_date !== null).length).toBeGreaterThan(100)
    expect(stored.toSorted((a, b) => a.customer_id - b.customer_id)).toEqual(
      expected.toSorted((a, b) => a.customer_id - b.customer_id),
    )
  })

  test('the check-ins listed as one of several of their customer that day are those', async () => {
    const ofTheDay = Map.groupBy(checkIns, (c) => `${c.local_date} ${c.customer_id}`)
    const expected = checkIns
      .filter((c) => ofTheDay.get(`${c.local_date} ${c.customer_id}`)!.length > 1)
      .map((c) => ({ local_date: c.local_date, customer_id: c.customer_id, check_in_id: c.id }))
    const listed = await db.selectFrom('same_day_check_ins').selectAll().orderBy('check_in_id').execute()
    expect(expected.length).toBeGreaterThan(0)
    expect(listed).toEqual(expected)
  })

  test("ids follow time, nothing is after now, check-outs come an hour or two later, and local_date is the zone's date", () => {
    const wrong = checkIns.filter(
      (c, i) =>
        (i > 0 && c.created_at < checkIns[i - 1]!.created_at) ||
        c.created_at > START ||
        c.local_date !== localDate(new Date(c.created_at), ZONE) ||
        (c.check_out_at !== null &&
          (c.check_out_at > START ||
            Date.parse(c.check_out_at) - Date.parse(c.created_at) < 60 * 60_000 ||
            Date.parse(c.check_out_at) - Date.parse(c.created_at) > 150 * 60_000)),
    )
    expect(wrong).toEqual([])
    expect(checkIns.at(-1)!.local_date).toBe(localDate(NOW, ZONE))
    expect(checkIns.some((c) => c.check_out_at !== null)).toBe(true)
  })

  test('visits fall in opening hours, mostly in the evening; winter is busier than summer, weekdays than Fridays', () => {
    const hours = checkIns.map((c) => wallClock(new Date(c.created_at), ZONE))
    expect(hours.filter((h) => h.hour < 6 || h.hour >= 23)).toEqual([])
    const evening = hours.filter((h) => h.hour >= 16 && h.hour < 21).length
    expect(evening / hours.length).toBeGreaterThan(0.5)
    // Per member who came that month, so the gym's growth over the years does not count as a season.
    const months = new Map<string, { visits: number; members: Set<number> }>()
    for (const c of checkIns.filter((c) => c.entry_method === 'MEM')) {
      const month = months.get(c.local_date.slice(0, 7)) ?? { visits: 0, members: new Set<number>() }
      month.visits++
      month.members.add(c.customer_id)
      months.set(c.local_date.slice(0, 7), month)
    }
    const perMember = (names: string[]) => {
      const chosen = [...months].filter(([month]) => names.includes(month.slice(5)))
      const visits = chosen.reduce((sum, [, m]) => sum + m.visits, 0)
      return visits / chosen.reduce((sum, [, m]) => sum + m.members.size, 0)
    }
    expect(perMember(['01', '02'])).toBeGreaterThan(1.3 * perMember(['07', '08']))
    const onWeekday = (day: number) =>
      checkIns.filter((c) => new Date(`${c.local_date}T12:00:00Z`).getUTCDay() === day).length
    expect(onWeekday(2)).toBeGreaterThan(1.2 * onWeekday(5))
  })

  test('most first memberships follow visits in the six weeks before they began', async () => {
    const [row] = await rowsOf<{ members: number; tried: number }>(
      db,
      sql`
        with firsts as (
          select mm.customer_id, min(m.start_date) as start
          from membership_members mm join customer_memberships m on m.id = mm.customer_membership_id
          where m.status not in ('PAY', 'IPC', 'DEN')
          group by mm.customer_id)
        select count(*) as members,
          sum(exists (select 1 from check_ins c where c.customer_id = f.customer_id
                      and c.local_date < f.start and c.local_date >= date(f.start, '-42 days'))) as tried
        from firsts f`,
    )
    expect(row!.tried / row!.members).toBeGreaterThan(0.5)
  })
})

import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { bringCheckInMetricsCurrent } from '../../../src/core/metrics/tables/check-in-catch-up.ts'
import { applyChange } from '../../../src/core/sites/apply.ts'
import { attachSite, registerSite, type AttachedSite } from '../../../src/core/sites/attach.ts'
import { ZERO_HLC } from '../../../src/lib/hlc.ts'
import { forgetSent, unsentChanges } from '../../../src/core/sites/changes.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { makeDoorCustomer, makeMembershipFor, makePassFor } from '../../helpers/door-factories.ts'
import { seedBasics, type Seed } from '../../helpers/factories.ts'

/*
 * Two sites of one organization, in process, with the hub left out: each box's unsent changes are
 * handed to the other and applied there, as the hub's stream would deliver them. The first box's
 * data existed before it became a site; the second starts as a copy of it (as a snapshot gives).
 */

interface Box {
  t: TestApp
  site: AttachedSite
}

let seed: Seed
let a: Box
let b: Box

beforeEach(async () => {
  const first = await makeTestApp()
  seed = await seedBasics(first.db)
  const second = await makeTestApp({ databaseImage: first.deps.sqlite.serialize() })
  const wall = (t: TestApp) => () => t.clock.now().getTime()
  const asSite = (t: TestApp, site: string, siteNumber: number): Box => {
    registerSite(
      t.deps.sqlite,
      { site, databaseId: `db-${site}`, siteNumber, organization: 'crag' },
      ZERO_HLC,
    )
    return { t, site: attachSite(t.deps.sqlite, wall(t)) }
  }
  a = asSite(first, 'alpha', 1)
  b = asSite(second, 'bravo', 2)
})

afterEach(async () => {
  for (const box of [a, b]) {
    box.site.detach()
    await box.t.close()
  }
})

/** Hands every unsent change of `from` to `to`, in order, each applied in one transaction. */
function deliver(from: Box, to: Box): number {
  const changes = unsentChanges(from.site.sqlite, from.site.tables, from.site, 10_000)
  for (const change of changes) {
    to.site.sqlite.transaction(() => {
      applyChange(
        { sqlite: to.site.sqlite, tables: to.site.tables, level: to.site.level, now: 'now' },
        change,
      )
    })()
    forgetSent(from.site.sqlite, change)
  }
  return changes.length
}

/** Both ways, as every site applies every other's changes. */
const exchange = () => {
  const [toB, toA] = [deliver(a, b), deliver(b, a)]
  return { toB, toA }
}

const rows = (box: Box, sql: string) => box.t.deps.sqlite.query(sql).all()

const signUp = (box: Box, body: Record<string, unknown>) =>
  box.t.request('POST', '/api/customers/', {
    token: seed.adminToken,
    body: { birthday: '1961-01-03', ...body },
  })

describe('two sites apart, then exchanging their changes', () => {
  test('a customer signed up at each site is at both, under ids only its site allocates', async () => {
    const atA = await signUp(a, { first_name: 'Lynn', last_name: 'Hill', barcode: 'LH-1' })
    const atB = await signUp(b, { first_name: 'Beth', last_name: 'Rodden', barcode: 'BR-2' })
    expect([atA.status, atB.status]).toEqual([201, 201])
    // Ids above the first box's (1 and 2 for the seed's staff), congruent to the site's number.
    expect([atA.body.id % 1024, atB.body.id % 1024]).toEqual([1, 2])
    expect(exchange()).toEqual({ toB: 1, toA: 1 })
    const everyone = 'SELECT id, first_name, last_name, barcode FROM customers ORDER BY id'
    expect(rows(a, everyone)).toEqual([
      { id: atA.body.id, first_name: 'Lynn', last_name: 'Hill', barcode: 'LH-1' },
      { id: atB.body.id, first_name: 'Beth', last_name: 'Rodden', barcode: 'BR-2' },
    ])
    expect(rows(b, everyone)).toEqual(rows(a, everyone))
    // Applied changes are not captured again: nothing goes back.
    expect(exchange()).toEqual({ toB: 0, toA: 0 })
  })

  test("a member signed up at one site is admitted at the other's door, and the check-in comes back", async () => {
    const customer = await makeDoorCustomer(a.t.db, 'LYNN1')
    await makeMembershipFor(a.t.db, customer.id)
    exchange()
    const scan = await b.t.request('POST', '/api/gym-endpoints/barcode-check-in/LYNN1/', {
      token: seed.staffToken,
    })
    expect(scan.status).toBe(200)
    expect(scan.body.id % 1024).toBe(2)
    exchange()
    const checkIns = 'SELECT id, customer_id, entry_method FROM check_ins'
    expect(rows(a, checkIns)).toEqual([{ id: scan.body.id, customer_id: customer.id, entry_method: 'MEM' }])
    const counted = 'SELECT check_in_count FROM customers'
    expect(rows(a, counted)).toEqual(rows(b, counted))
  })

  test("another site's check-in arriving below the ids counted is counted in the metrics too", async () => {
    for (const barcode of ['M1', 'M2', 'M3']) {
      const customer = await makeDoorCustomer(a.t.db, barcode)
      await makeMembershipFor(a.t.db, customer.id)
    }
    exchange()
    const scan = (box: Box, barcode: string) =>
      box.t.request('POST', `/api/gym-endpoints/barcode-check-in/${barcode}/`, { token: seed.staffToken })
    const ids = [(await scan(a, 'M1')).body.id, (await scan(a, 'M2')).body.id]
    await bringCheckInMetricsCurrent(a.t.db)
    const late = (await scan(b, 'M3')).body.id
    expect(late).toBeLessThan(ids[1])
    exchange()
    const counted = 'SELECT sum(check_ins) AS n FROM check_in_day_counts'
    for (const box of [a, b]) {
      await bringCheckInMetricsCurrent(box.t.db)
      expect(rows(box, counted)).toEqual([{ n: 3 }])
      expect(rows(box, 'SELECT count(*) AS n FROM check_in_metrics_late')).toEqual([{ n: 0 }])
    }
  })

  test('a 10-entry pass used once at each site while apart has 8 left at both', async () => {
    const customer = await makeDoorCustomer(a.t.db, 'PASS1')
    await makePassFor(a.t.db, customer.id, { entries_remaining: 10 })
    exchange()
    for (const box of [a, b]) {
      const scan = await box.t.request('POST', '/api/gym-endpoints/barcode-check-in/PASS1/', {
        token: seed.staffToken,
      })
      expect(scan.status).toBe(200)
    }
    exchange()
    const left = 'SELECT entries_remaining FROM customer_entry_passes'
    expect(rows(a, left)).toEqual([{ entries_remaining: 8 }])
    expect(rows(b, left)).toEqual([{ entries_remaining: 8 }])
    const counted = 'SELECT check_in_count FROM customers'
    expect(rows(a, counted)).toEqual(rows(b, counted))
  })

  test('a count changed alone travels as its delta; with another column, both travel in one row change', async () => {
    const customer = await makeDoorCustomer(a.t.db, 'COUNT1', { check_in_count: 5 })
    exchange()
    const count = (box: Box, by: number, also: { email?: string } = {}) =>
      box.t.db
        .updateTable('customers')
        .set((eb) => ({ check_in_count: eb('check_in_count', '+', by), ...also }))
        .where('id', '=', customer.id)
        .execute()
    await count(a, 1)
    await count(a, 2, { email: 'count1@example.org' })
    expect(unsentChanges(a.site.sqlite, a.site.tables, a.site, 100).map((change) => change.rows)).toEqual([
      [{ table: 'customers', op: 'update', key: [customer.id], values: {}, deltas: { check_in_count: 1 } }],
      [
        {
          table: 'customers',
          op: 'update',
          key: [customer.id],
          values: { email: 'count1@example.org' },
          deltas: { check_in_count: 2 },
        },
      ],
    ])
    await count(b, 1)
    exchange()
    const counted = `SELECT check_in_count, email FROM customers WHERE id = ${customer.id}`
    expect(rows(a, counted)).toEqual([{ check_in_count: 9, email: 'count1@example.org' }])
    expect(rows(b, counted)).toEqual(rows(a, counted))
  })

  test('the last entry of a pass taken at both sites while apart: zero left everywhere, never below', async () => {
    const customer = await makeDoorCustomer(a.t.db, 'LAST1')
    await makePassFor(a.t.db, customer.id, { entries_remaining: 1 })
    exchange()
    for (const box of [a, b]) {
      const scan = await box.t.request('POST', '/api/gym-endpoints/barcode-check-in/LAST1/', {
        token: seed.staffToken,
      })
      expect(scan.status).toBe(200)
    }
    exchange()
    const left = 'SELECT entries_remaining FROM customer_entry_passes'
    expect(rows(a, left)).toEqual([{ entries_remaining: 0 }])
    expect(rows(b, left)).toEqual([{ entries_remaining: 0 }])
  })

  test('a row change the rows here refuse is recorded as a conflict, and the rest of the change applies', async () => {
    await signUp(a, { first_name: 'Lynn', last_name: 'Hill' })
    const [change] = unsentChanges(a.site.sqlite, a.site.tables, a.site, 100)
    // An alert for a customer B does not have, before the sign-up itself.
    const orphan = {
      table: 'customer_alerts',
      op: 'insert' as const,
      key: [9_999],
      values: {
        id: 9_999,
        customer_id: 8_888,
        alert_text: 'x',
        color_hex: '#ff0000',
        prevents_check_in: 0,
        is_active: 1,
        created_date: '2026-11-22',
        created_at: 'now',
        updated_at: 'now',
      },
    }
    const context = { sqlite: b.site.sqlite, tables: b.site.tables, level: b.site.level, now: 'now' }
    b.site.sqlite.transaction(() => applyChange(context, { ...change!, rows: [orphan, ...change!.rows] }))()
    expect(rows(b, 'SELECT first_name FROM customers')).toEqual([{ first_name: 'Lynn' }])
    expect(
      rows(b, 'SELECT table_name, value, lost_row_key, lost_site, resolution FROM sync_conflicts'),
    ).toEqual([
      {
        table_name: 'customer_alerts',
        value: 'FOREIGN KEY constraint failed',
        lost_row_key: '[9999]',
        lost_site: 'alpha',
        resolution: 'not applied',
      },
    ])
  })

  test('one customer edited at both sites while apart: each column ends with its later write', async () => {
    const made = await signUp(a, { first_name: 'Lynn', last_name: 'Hill', telephone: '111' })
    exchange()
    const path = `/api/customers/${made.body.id}/`
    await b.t.request('PATCH', path, { token: seed.adminToken, body: { telephone: '222' } })
    a.t.clock.advance(1_000)
    await a.t.request('PATCH', path, { token: seed.adminToken, body: { telephone: '333' } })
    b.t.clock.advance(2_000)
    await b.t.request('PATCH', path, { token: seed.adminToken, body: { last_name: 'Hill-Price' } })
    exchange()
    const customer = 'SELECT first_name, last_name, telephone FROM customers'
    expect(rows(a, customer)).toEqual([{ first_name: 'Lynn', last_name: 'Hill-Price', telephone: '333' }])
    expect(rows(b, customer)).toEqual(rows(a, customer))
  })

  test('one barcode given to two new customers while apart stays with the earlier; one conflict at each', async () => {
    const first = await signUp(a, { first_name: 'Lynn', last_name: 'Hill', barcode: 'SAME' })
    b.t.clock.advance(1_000)
    const second = await signUp(b, { first_name: 'Beth', last_name: 'Rodden', barcode: 'SAME' })
    exchange()
    const barcodes = 'SELECT id, barcode FROM customers ORDER BY id'
    expect(rows(a, barcodes)).toEqual([
      { id: first.body.id, barcode: 'SAME' },
      { id: second.body.id, barcode: null },
    ])
    expect(rows(b, barcodes)).toEqual(rows(a, barcodes))
    const conflicts =
      'SELECT table_name, column_names, value, kept_row_key, lost_row_key, lost_site, resolution FROM sync_conflicts'
    const conflict = {
      table_name: 'customers',
      column_names: '["barcode"]',
      value: 'SAME',
      kept_row_key: `[${first.body.id}]`,
      lost_row_key: `[${second.body.id}]`,
      lost_site: 'bravo',
      resolution: 'cleared',
    }
    expect(rows(a, conflicts)).toEqual([conflict])
    expect(rows(b, conflicts)).toEqual([conflict])
  })

  test("a photo's bytes arrive whole, and a new photo replaces them", async () => {
    const customer = await makeDoorCustomer(a.t.db, 'PIC1')
    const bytes = (n: number) => new Uint8Array(Array.from({ length: 300 }, (_, i) => (i * n) % 256))
    await a.t.db
      .insertInto('customer_photos')
      .values({ customer_id: customer.id, content_type: 'image/jpeg', content: bytes(7), taken_at: 'now' })
      .execute()
    exchange()
    const photo = 'SELECT content FROM customer_photos'
    expect(rows(b, photo)).toEqual([{ content: bytes(7) }])
    await b.t.db
      .updateTable('customer_photos')
      .set({ content: bytes(11) })
      .execute()
    exchange()
    expect(rows(a, photo)).toEqual([{ content: bytes(11) }])
  })

  test('a change applied twice is applied once', async () => {
    await signUp(a, { first_name: 'Lynn', last_name: 'Hill' })
    const [change] = unsentChanges(a.site.sqlite, a.site.tables, a.site, 100)
    const context = { sqlite: b.site.sqlite, tables: b.site.tables, level: b.site.level, now: 'now' }
    expect(applyChange(context, change!)).toBe('applied')
    expect(applyChange(context, change!)).toBe('already applied')
    expect(rows(b, 'SELECT count(*) AS n FROM customers')).toEqual([{ n: 1 }])
  })

  test('a change from a newer schema level is not applied', async () => {
    await signUp(a, { first_name: 'Lynn', last_name: 'Hill' })
    const [change] = unsentChanges(a.site.sqlite, a.site.tables, a.site, 100)
    const context = { sqlite: b.site.sqlite, tables: b.site.tables, level: b.site.level, now: 'now' }
    expect(applyChange(context, { ...change!, level: b.site.level + 1 })).toBe('newer level')
    expect(rows(b, 'SELECT count(*) AS n FROM customers')).toEqual([{ n: 0 }])
  })
})

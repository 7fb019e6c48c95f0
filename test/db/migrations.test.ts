import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { migrations } from '../../migrations/index.ts'
import { bringCheckInMetricsCurrent } from '../../src/core/metrics/tables/check-in-catch-up.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { migrateToLatest, migrationStatus } from '../../src/db/migrator.ts'
import { migrateAfter, migrateBefore } from '../helpers/migrate.ts'
import { NewerDatabaseError } from '../../src/lib/startup-errors.ts'

const folder = join(import.meta.dir, '../../migrations')

describe('migrations', () => {
  test('every NNNN_*.ts file in migrations/ is listed in the static index', () => {
    const files = readdirSync(folder)
      .filter((f) => /^\d{4}_.+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
    expect(files.length).toBeGreaterThan(0)
    expect(Object.keys(migrations).sort()).toEqual(files.sort())
  })

  test('index names are in order and unique', () => {
    const names = Object.keys(migrations)
    expect([...names].sort()).toEqual(names)
  })

  test('apply once, record each, and a second run applies nothing', async () => {
    const { db, close } = openDatabase(':memory:')
    const applied = await migrateToLatest(db, () => new Date('2026-11-22T00:00:00.000Z'))
    expect(applied).toEqual(Object.keys(migrations))
    expect(await migrateToLatest(db)).toEqual([])
    const status = await migrationStatus(db)
    expect(status.every((m) => m.appliedAt === '2026-11-22T00:00:00.000Z')).toBe(true)
    await close()
  })

  test('a database upgraded by a newer executable is refused and left exactly as it was', async () => {
    const { db, sqlite, close } = openDatabase(':memory:')
    const [first] = Object.keys(migrations)
    // As a newer belay would leave it: a migration this one knows, and one it does not.
    await migrationStatus(db)
    sqlite.run(`INSERT INTO schema_migrations VALUES ('${first}', 'then'), ('9999_from_the_future', 'later')`)
    const tables = () =>
      sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
    const before = tables()

    const refused = await migrateToLatest(db).catch((error) => error)
    expect(refused).toBeInstanceOf(NewerDatabaseError)
    expect(refused.unknownMigrations).toEqual(['9999_from_the_future'])
    expect(tables()).toEqual(before)
    expect((await migrationStatus(db)).filter((m) => m.appliedAt !== null)).toEqual([
      { name: first!, appliedAt: 'then' },
      { name: '9999_from_the_future', appliedAt: 'later', unknown: true },
    ])
    await close()
  })

  test('0005 gives existing products no tax rate, no account code and events a price of 0, and clears the tax rate ids add-ons held (no tax rate existed before it)', async () => {
    const { db, sqlite, close } = openDatabase(':memory:')
    await migrateBefore(db, '0005_sales_catalogue')
    const stamp = "'2026-11-22T00:00:00.000Z'"
    for (const statement of [
      `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp})`,
      `INSERT INTO event_types (id, name, gym_id, status, created_at, updated_at) VALUES (1, 'Intro', 1, 'ACT', ${stamp}, ${stamp})`,
      `INSERT INTO events (event_type_id, gym_id, name, start_at, end_at, includes_entry, is_cancelled, created_at, updated_at) VALUES (1, 1, 'Intro', ${stamp}, '2026-11-22T01:00:00.000Z', 1, 0, ${stamp}, ${stamp})`,
      `INSERT INTO membership_types (name, status, purchase_type, created_at, updated_at) VALUES ('Punch', 'ACT', 'PRE', ${stamp}, ${stamp})`,
      `INSERT INTO entry_pass_types (name, status, number_of_entries, created_at, updated_at) VALUES ('Day', 'ACT', 1, ${stamp}, ${stamp})`,
      `INSERT INTO add_ons (id, name, tax_rate_id, created_at, updated_at) VALUES ('locker', 'Locker', 7, ${stamp}, ${stamp})`,
    ])
      sqlite.run(statement)
    await migrations['0005_sales_catalogue']!.up(db)
    const terms = { tax_rate_id: null, revenue_account_code: '' }
    expect(sqlite.query('SELECT tax_rate_id, revenue_account_code FROM membership_types').all()).toEqual([
      terms,
    ])
    expect(sqlite.query('SELECT tax_rate_id, revenue_account_code FROM entry_pass_types').all()).toEqual([
      terms,
    ])
    expect(sqlite.query('SELECT price_cents, tax_rate_id, revenue_account_code FROM events').all()).toEqual([
      { price_cents: 0, ...terms },
    ])
    expect(sqlite.query('SELECT id, tax_rate_id FROM add_ons').all()).toEqual([
      { id: 'locker', tax_rate_id: null },
    ])
    await close()
  })

  test('0007 keeps every gift as it was, with its ids and unique codes, and lets a gift be a membership type', async () => {
    const { db, sqlite, close } = openDatabase(':memory:')
    await migrateBefore(db, '0007_membership_gifts')
    const stamp = "'2026-11-22T00:00:00.000Z'"
    for (const statement of [
      `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp})`,
      `INSERT INTO entry_pass_types (id, name, status, number_of_entries, created_at, updated_at) VALUES (3, 'Day', 'ACT', 1, ${stamp}, ${stamp})`,
      `INSERT INTO membership_types (id, name, status, purchase_type, created_at, updated_at) VALUES (4, 'Punch', 'ACT', 'PRE', ${stamp}, ${stamp})`,
      `INSERT INTO invoices (id, gym_id, created_at, updated_at) VALUES (1, 1, ${stamp}, ${stamp})`,
      ...[5, 6, 7, 8].map(
        (id) =>
          `INSERT INTO invoice_line_items (id, invoice_id, position, purchase_type, quantity, unit_price_cents, discount_cents, net_cents, tax_cents) VALUES (${id}, 1, ${id}, 'GIF', 1, 1500, 0, 1500, 0)`,
      ),
      `INSERT INTO gifts (id, code, invoice_line_item_id, entry_pass_type_id, created_at) VALUES (9, 'ABCDEFGHJKMN', 5, 3, ${stamp})`,
    ])
      sqlite.run(statement)
    await migrations['0007_membership_gifts']!.up(db)
    expect(sqlite.query('SELECT * FROM gifts').all()).toEqual([
      {
        id: 9,
        code: 'ABCDEFGHJKMN',
        invoice_line_item_id: 5,
        entry_pass_type_id: 3,
        voucher_pack_id: null,
        membership_type_id: null,
        purchaser_id: null,
        redeemed_by_id: null,
        redeemed_at: null,
        customer_entry_pass_id: null,
        customer_event_voucher_id: null,
        customer_membership_id: null,
        created_at: '2026-11-22T00:00:00.000Z',
      },
    ])
    const gift = (code: string, lineId: number, products: Record<string, number>) =>
      `INSERT INTO gifts (code, invoice_line_item_id, ${Object.keys(products).join(', ')}, created_at)
        VALUES ('${code}', ${lineId}, ${Object.values(products).join(', ')}, ${stamp})`
    sqlite.run(gift('PQRSTUVWXYZ2', 6, { membership_type_id: 4 }))
    expect(() =>
      sqlite.run(gift('PQRSTUVWXYZ3', 7, { entry_pass_type_id: 3, membership_type_id: 4 })),
    ).toThrow('CHECK constraint failed')
    expect(() => sqlite.run(gift('ABCDEFGHJKMN', 8, { membership_type_id: 4 }))).toThrow(
      'UNIQUE constraint failed: gifts.code',
    )
    expect(() => sqlite.run(gift('PQRSTUVWXYZ4', 5, { membership_type_id: 4 }))).toThrow(
      'UNIQUE constraint failed: gifts.invoice_line_item_id',
    )
    // The copy took the table's name and its unique columns' indexes; nothing of the old is left.
    expect(
      sqlite.query("SELECT type, name FROM sqlite_master WHERE name LIKE '%gifts%' ORDER BY name").all(),
    ).toEqual([
      { type: 'table', name: 'gifts' },
      { type: 'index', name: 'sqlite_autoindex_gifts_1' },
      { type: 'index', name: 'sqlite_autoindex_gifts_2' },
    ])
    await close()
  })

  test('0008 indexes the invoices that existed before it for search, with their customers’ names and email', async () => {
    const { db, sqlite, close } = openDatabase(':memory:')
    await migrateBefore(db, '0008_payments_search')
    const stamp = "'2026-11-22T00:00:00.000Z'"
    for (const statement of [
      `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp})`,
      `INSERT INTO customers (id, first_name, last_name, preferred_name, email, birthday, created_at, updated_at) VALUES (1, 'Lynn', 'Hill', 'Lynnie', 'lynn@crag.example', '1961-01-03', ${stamp}, ${stamp})`,
      `INSERT INTO invoices (id, customer_id, gym_id, description, created_at, updated_at) VALUES (141, 1, 1, 'Ten-visit pass', ${stamp}, ${stamp})`,
      `INSERT INTO invoices (id, customer_id, gym_id, description, created_at, updated_at) VALUES (142, NULL, 1, 'Chalk bag', ${stamp}, ${stamp})`,
    ])
      sqlite.run(statement)
    await migrations['0008_payments_search']!.up(db)
    const found = (match: string) =>
      sqlite
        .query('SELECT rowid AS id FROM invoice_search WHERE invoice_search MATCH ? ORDER BY rowid')
        .all(match)
        .map((row) => (row as { id: number }).id)
    expect(found('"HILL"')).toEqual([141])
    expect(found('"lynnie" AND "crag.ex" AND "visit"')).toEqual([141])
    expect(found('"chalk"')).toEqual([142])
    expect(found('"142"')).toEqual([142])
    expect(found('"ill"')).toEqual([141])
    await close()
  })

  test('0009 makes existing event types recurring, in no category, and refuses any other schedule type', async () => {
    const { db, sqlite, close } = openDatabase(':memory:')
    await migrateBefore(db, '0009_event_type_attributes')
    const stamp = "'2026-11-22T00:00:00.000Z'"
    for (const statement of [
      `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp})`,
      `INSERT INTO event_types (id, name, gym_id, status, created_at, updated_at) VALUES (1, 'Intro', 1, 'ACT', ${stamp}, ${stamp})`,
    ])
      sqlite.run(statement)
    await migrations['0009_event_type_attributes']!.up(db)
    expect(sqlite.query('SELECT id, schedule_type FROM event_types').all()).toEqual([
      { id: 1, schedule_type: 'recurring' },
    ])
    expect(sqlite.query('SELECT * FROM event_type_categories').all()).toEqual([])
    expect(() => sqlite.run("UPDATE event_types SET schedule_type = 'weekly'")).toThrow(
      'CHECK constraint failed',
    )
    await close()
  })

  test('0011 keeps each line’s share of the paid payments and refunds that existed before it, and triggers keep it as payments and refunds are recorded', async () => {
    const { db, sqlite, close } = openDatabase(':memory:')
    await migrateBefore(db, '0011_revenue_entries')
    const stamp = "'2026-11-22T00:00:00.000Z'"
    const payment = (id: number, status: string, amount: number, fee: number) =>
      `INSERT INTO payments (id, invoice_id, status, payment_type, amount_cents, processor_fee_cents, created_at, updated_at) VALUES (${id}, 1, '${status}', 'STR', ${amount}, ${fee}, ${stamp}, ${stamp})`
    const refund = (id: number, amount: number, fee: number, at: string) =>
      `INSERT INTO refunds (id, payment_id, amount_cents, processor_fee_cents, created_at) VALUES (${id}, 11, ${amount}, ${fee}, '${at}')`
    for (const statement of [
      `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp})`,
      `INSERT INTO customers (id, first_name, last_name, birthday, created_at, updated_at) VALUES (1, 'Lynn', 'Hill', '1961-01-03', ${stamp}, ${stamp})`,
      `INSERT INTO membership_types (id, name, status, purchase_type, created_at, updated_at) VALUES (4, 'Punch', 'ACT', 'PRE', ${stamp}, ${stamp})`,
      `INSERT INTO customer_memberships (id, membership_type_id, owner_id, status, start_date, created_at, updated_at) VALUES (1, 4, 1, 'ACT', '2026-11-01', ${stamp}, ${stamp})`,
      `INSERT INTO invoices (id, gym_id, created_at, updated_at) VALUES (1, 1, ${stamp}, ${stamp})`,
      // An add-on charge naming its membership type only through the membership; 50.00 in all.
      `INSERT INTO invoice_line_items (id, invoice_id, position, purchase_type, quantity, unit_price_cents, discount_cents, net_cents, tax_cents, customer_membership_id) VALUES (5, 1, 0, 'MAC', 1, 3000, 0, 3000, 0, 1)`,
      `INSERT INTO invoice_line_items (id, invoice_id, position, purchase_type, quantity, unit_price_cents, discount_cents, net_cents, tax_cents) VALUES (6, 1, 1, 'GEN', 1, 1800, 0, 1800, 200)`,
      payment(11, 'PRF', 2500, 100),
      payment(12, 'PRO', 2500, 0),
      refund(21, 500, 10, '2026-11-23T00:00:00.000Z'),
    ])
      sqlite.run(statement)
    await migrations['0011_revenue_entries']!.up(db)
    const entries = () =>
      sqlite
        .query(
          'SELECT at, payment_id, refund_id, line_id, purchase_type, product_id, gym_id, payment_type, amount, fee FROM revenue_entries ORDER BY payment_id, refund_id, line_id',
        )
        .all()
    const entry = (
      at: string,
      paymentId: number,
      refundId: number,
      lineId: number,
      amount: number,
      fee: number,
    ) => ({
      at,
      payment_id: paymentId,
      refund_id: refundId,
      line_id: lineId,
      purchase_type: lineId === 5 ? 'MAC' : 'GEN',
      product_id: lineId === 5 ? 4 : null,
      gym_id: 1,
      payment_type: 'STR',
      amount,
      fee,
    })
    const sold = '2026-11-22T00:00:00.000Z'
    const refunded = '2026-11-23T00:00:00.000Z'
    // Line net x amount / 50.00 of money; line total x fee / 50.00 of the fee.
    const before = [
      entry(sold, 11, 0, 5, 1500, 60),
      entry(sold, 11, 0, 6, 900, 40),
      entry(refunded, 11, 21, 5, -300, 6),
      entry(refunded, 11, 21, 6, -180, 4),
    ]
    expect(entries()).toEqual(before)
    // The terminal's payment completes; another refund; then the first payment stops being paid.
    sqlite.run("UPDATE payments SET status = 'COM' WHERE id = 12")
    sqlite.run(refund(22, 1000, 0, '2026-11-24T00:00:00.000Z'))
    const after = [
      entry('2026-11-24T00:00:00.000Z', 11, 22, 5, -600, 0),
      entry('2026-11-24T00:00:00.000Z', 11, 22, 6, -360, 0),
      entry(sold, 12, 0, 5, 1500, 0),
      entry(sold, 12, 0, 6, 900, 0),
    ]
    expect(entries()).toEqual([...before, ...after])
    sqlite.run("UPDATE payments SET status = 'CAN' WHERE id = 11")
    expect(entries()).toEqual([...before.slice(2), ...after])
    await close()
  })

  test('0014 keeps the first use of each product by each customer, from the check-ins before it and those after', async () => {
    const { db, sqlite, close } = openDatabase(':memory:')
    await migrateBefore(db, '0014_product_first_uses')
    const stamp = "'2026-11-22T00:00:00.000Z'"
    const checkIn = (id: number, method: string, holding: string, at: string) =>
      `INSERT INTO check_ins (id, customer_id, gym_id, entry_method, ${holding}, local_date, created_at, updated_at)
        VALUES (${id}, 1, 1, '${method}', ${holding === 'free_entry_reason' ? "'Birthday'" : 1}, '2026-01-01', '${at}', '${at}')`
    for (const statement of [
      `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp})`,
      `INSERT INTO customers (id, first_name, last_name, birthday, created_at, updated_at) VALUES (1, 'Lynn', 'Hill', '1961-01-03', ${stamp}, ${stamp})`,
      `INSERT INTO membership_types (id, name, status, purchase_type, interval, price_cents, created_at, updated_at) VALUES (7, 'Monthly', 'ACT', 'REC', 'MON', 6500, ${stamp}, ${stamp})`,
      `INSERT INTO customer_memberships (id, membership_type_id, owner_id, status, start_date, created_at, updated_at) VALUES (1, 7, 1, 'ACT', '2026-01-01', ${stamp}, ${stamp})`,
      `INSERT INTO entry_pass_types (id, name, status, number_of_entries, price_cents, created_at, updated_at) VALUES (3, 'Punch', 'ACT', 10, 15000, ${stamp}, ${stamp})`,
      `INSERT INTO customer_entry_passes (id, entry_pass_type_id, owner_id, entries_total, entries_remaining, acquired_via, created_at, updated_at) VALUES (1, 3, 1, 10, 8, 'purchase', ${stamp}, ${stamp})`,
      checkIn(1, 'ENT', 'customer_entry_pass_id', '2026-02-02T18:00:00.000Z'),
      checkIn(2, 'ENT', 'customer_entry_pass_id', '2026-02-01T18:00:00.000Z'),
      checkIn(3, 'FRE', 'free_entry_reason', '2026-01-15T18:00:00.000Z'),
      checkIn(4, 'MEM', 'customer_membership_id', '2026-03-02T18:00:00.000Z'),
    ])
      sqlite.run(statement)
    await migrations['0014_product_first_uses']!.up(db)
    // Written after, one earlier than the first use on record and one later.
    sqlite.run(checkIn(5, 'MEM', 'customer_membership_id', '2026-03-01T18:00:00.000Z'))
    sqlite.run(checkIn(6, 'ENT', 'customer_entry_pass_id', '2026-02-03T18:00:00.000Z'))
    expect(sqlite.query('SELECT * FROM product_first_uses ORDER BY used_at').all()).toEqual([
      {
        customer_id: 1,
        product_type: 'entry_pass',
        product_id: 3,
        used_at: '2026-02-01T18:00:00.000Z',
        customer_membership_id: null,
      },
      {
        customer_id: 1,
        product_type: 'membership',
        product_id: 7,
        used_at: '2026-03-01T18:00:00.000Z',
        customer_membership_id: 1,
      },
    ])
    await close()
  })

  test('0017 keeps the check-in metrics with one insert trigger that writes what the four it replaced wrote', async () => {
    const opened = [openDatabase(':memory:'), openDatabase(':memory:')]
    const before = opened[0]!.sqlite
    const after = opened[1]!.sqlite
    for (const { db } of opened) await migrateBefore(db, '0017_check_in_metrics_trigger')
    await migrations['0017_check_in_metrics_trigger']!.up(opened[1]!.db)
    const insertTriggers = (sqlite: typeof before) =>
      sqlite
        .query(
          "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'check_ins' AND sql LIKE '%AFTER INSERT%'",
        )
        .all()
    expect(insertTriggers(after)).toEqual([{ name: 'check_in_metrics_insert' }])
    expect(insertTriggers(before)).toHaveLength(4)

    const stamp = "'2026-11-22T00:00:00.000Z'"
    const checkIn = (
      id: number,
      customer: number,
      method: string,
      holding: string,
      day: string,
      at: string,
    ) =>
      `INSERT INTO check_ins (id, customer_id, gym_id, entry_method, ${holding}, check_in_count, local_date, created_at, updated_at)
        VALUES (${id}, ${customer}, 1, '${method}', ${holding === 'free_entry_reason' ? "'Birthday'" : 1}, ${id === 1 ? 1 : 2}, '${day}', '${at}', '${at}')`
    const statements = [
      `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp})`,
      `INSERT INTO customers (id, first_name, last_name, birthday, created_at, updated_at) VALUES (1, 'Lynn', 'Hill', '1961-01-03', ${stamp}, ${stamp}), (2, 'Alex', 'Honnold', '1985-08-17', ${stamp}, ${stamp})`,
      `INSERT INTO membership_types (id, name, status, purchase_type, interval, price_cents, created_at, updated_at) VALUES (7, 'Monthly', 'ACT', 'REC', 'MON', 6500, ${stamp}, ${stamp})`,
      `INSERT INTO customer_memberships (id, membership_type_id, owner_id, status, start_date, created_at, updated_at) VALUES (1, 7, 1, 'ACT', '2026-01-01', ${stamp}, ${stamp})`,
      `INSERT INTO entry_pass_types (id, name, status, number_of_entries, price_cents, created_at, updated_at) VALUES (3, 'Punch', 'ACT', 10, 15000, ${stamp}, ${stamp})`,
      `INSERT INTO customer_entry_passes (id, entry_pass_type_id, owner_id, entries_total, entries_remaining, acquired_via, created_at, updated_at) VALUES (1, 3, 1, 10, 8, 'purchase', ${stamp}, ${stamp})`,
      `INSERT INTO event_types (id, name, gym_id, status, created_at, updated_at) VALUES (5, 'Yoga', 1, 'ACT', ${stamp}, ${stamp})`,
      `INSERT INTO events (id, event_type_id, gym_id, start_at, end_at, created_at, updated_at) VALUES (1, 5, 1, '2026-02-03T17:00:00.000Z', '2026-02-03T18:00:00.000Z', ${stamp}, ${stamp})`,
      `INSERT INTO reservations (id, event_id, customer_id, created_at, updated_at) VALUES (1, 1, 1, ${stamp}, ${stamp})`,
      checkIn(1, 1, 'MEM', 'customer_membership_id', '2026-02-02', '2026-02-02T18:00:00.000Z'),
      // The same day again, with a pass; then earlier days, an event, a guest, free entry.
      checkIn(2, 1, 'ENT', 'customer_entry_pass_id', '2026-02-02', '2026-02-02T20:00:00.000Z'),
      checkIn(3, 1, 'MEM', 'customer_membership_id', '2026-02-01', '2026-02-01T18:00:00.000Z'),
      checkIn(4, 1, 'EVE', 'reservation_id', '2026-02-03', '2026-02-03T17:00:00.000Z'),
      checkIn(5, 2, 'GUE', 'customer_membership_id', '2026-02-03', '2026-02-03T17:30:00.000Z'),
      checkIn(6, 2, 'FRE', 'free_entry_reason', '2026-01-30', '2026-01-30T18:00:00.000Z'),
      checkIn(7, 1, 'ENT', 'customer_entry_pass_id', '2026-01-31', '2026-01-31T18:00:00.000Z'),
      checkIn(8, 2, 'MEM', 'customer_membership_id', '2026-02-03', '2026-02-03T19:00:00.000Z'),
      // Later uses of a product than the first on record.
      checkIn(9, 1, 'ENT', 'customer_entry_pass_id', '2026-02-04', '2026-02-04T18:00:00.000Z'),
      checkIn(10, 1, 'EVE', 'reservation_id', '2026-02-04', '2026-02-04T19:00:00.000Z'),
    ]
    const facts = (sqlite: typeof before) =>
      [
        'SELECT * FROM check_in_day_counts ORDER BY 1, 2, 3, 4',
        'SELECT * FROM product_first_uses ORDER BY 1, 2, 3',
        'SELECT * FROM customer_first_visit_days ORDER BY 1',
        'SELECT * FROM same_day_check_ins ORDER BY 1, 2, 3',
      ].map((query) => sqlite.query(query).all())
    for (const statement of statements) {
      before.run(statement)
      after.run(statement)
      expect(facts(after)).toEqual(facts(before))
    }
    const [dayCounts, firstUses, visitDays, sameDay] = facts(after)
    // One check-in to each day, method and product; the first-ever one is check-in 1.
    expect((dayCounts as Array<Record<string, unknown>>).map((row) => Object.values(row).join(' '))).toEqual([
      '2026-01-30 1 FRE 0 1 0',
      '2026-01-31 1 ENT 3 1 0',
      '2026-02-01 1 MEM 7 1 0',
      '2026-02-02 1 ENT 3 1 0',
      '2026-02-02 1 MEM 7 1 1',
      '2026-02-03 1 EVE 5 1 0',
      '2026-02-03 1 GUE 7 1 0',
      '2026-02-03 1 MEM 7 1 0',
      '2026-02-04 1 ENT 3 1 0',
      '2026-02-04 1 EVE 5 1 0',
    ])
    expect(firstUses).toEqual([
      {
        customer_id: 1,
        product_type: 'entry_pass',
        product_id: 3,
        used_at: '2026-01-31T18:00:00.000Z',
        customer_membership_id: null,
      },
      {
        customer_id: 1,
        product_type: 'event',
        product_id: 5,
        used_at: '2026-02-03T17:00:00.000Z',
        customer_membership_id: null,
      },
      {
        customer_id: 1,
        product_type: 'membership',
        product_id: 7,
        used_at: '2026-02-01T18:00:00.000Z',
        customer_membership_id: 1,
      },
      {
        customer_id: 2,
        product_type: 'membership',
        product_id: 7,
        used_at: '2026-02-03T19:00:00.000Z',
        customer_membership_id: 1,
      },
    ])
    expect(visitDays).toEqual([
      { customer_id: 1, first_date: '2026-01-31', return_date: '2026-02-01' },
      { customer_id: 2, first_date: '2026-01-30', return_date: '2026-02-03' },
    ])
    expect(sameDay).toEqual([
      { local_date: '2026-02-02', customer_id: 1, check_in_id: 1 },
      { local_date: '2026-02-02', customer_id: 1, check_in_id: 2 },
      { local_date: '2026-02-03', customer_id: 2, check_in_id: 5 },
      { local_date: '2026-02-03', customer_id: 2, check_in_id: 8 },
      { local_date: '2026-02-04', customer_id: 1, check_in_id: 9 },
      { local_date: '2026-02-04', customer_id: 1, check_in_id: 10 },
    ])
    for (const { close } of opened) await close()
  })

  test('0018 lists the same same-day check-ins as before, looking only where another may be', async () => {
    const opened = [openDatabase(':memory:'), openDatabase(':memory:')]
    for (const { db } of opened) await migrateBefore(db, '0018_latest_check_in_date')
    const [before, after] = opened.map((o) => o.sqlite) as [
      (typeof opened)[0]['sqlite'],
      (typeof opened)[0]['sqlite'],
    ]
    const stamp = "'2026-11-22T00:00:00.000Z'"
    const checkIn = (id: number, customer: number, gym: number, day: string, at: string) =>
      `INSERT INTO check_ins (id, customer_id, gym_id, entry_method, free_entry_reason, check_in_count, local_date, created_at, updated_at)
        VALUES (${id}, ${customer}, ${gym}, 'FRE', 'Birthday', 2, '${day}', '${at}', '${at}')`
    const latestDates = () => after.query('SELECT id, latest_check_in_date FROM customers ORDER BY id').all()
    for (const sqlite of [before, after])
      for (const statement of [
        `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp}), (2, 'Cave', 'Pacific/Auckland', ${stamp}, ${stamp})`,
        `INSERT INTO customers (id, first_name, last_name, birthday, created_at, updated_at) VALUES (1, 'Lynn', 'Hill', '1961-01-03', ${stamp}, ${stamp}), (2, 'Alex', 'Honnold', '1985-08-17', ${stamp}, ${stamp})`,
        checkIn(1, 1, 1, '2026-02-01', '2026-02-01T18:00:00.000Z'),
        checkIn(2, 1, 1, '2026-02-02', '2026-02-02T18:00:00.000Z'),
      ])
        sqlite.run(statement)
    await migrations['0018_latest_check_in_date']!.up(opened[1]!.db)
    // The check-ins before it give each customer their latest day.
    expect(latestDates()).toEqual([
      { id: 1, latest_check_in_date: '2026-02-02' },
      { id: 2, latest_check_in_date: null },
    ])

    const statements = [
      // The same local day at the other gym, a UTC day earlier; then a third time, back at the first.
      checkIn(3, 1, 2, '2026-02-02', '2026-02-01T20:00:00.000Z'),
      checkIn(4, 1, 1, '2026-02-02', '2026-02-03T02:00:00.000Z'),
      checkIn(5, 2, 2, '2026-02-03', '2026-02-02T21:00:00.000Z'),
      checkIn(6, 2, 1, '2026-02-03', '2026-02-03T18:00:00.000Z'),
      // Recorded late: two of an earlier day, the first alone on it.
      checkIn(7, 2, 1, '2026-02-01', '2026-02-01T19:00:00.000Z'),
      checkIn(8, 2, 2, '2026-02-01', '2026-01-31T22:00:00.000Z'),
      // One of a listed pair deleted, then the day's second again: the date stayed, so it is found.
      `DELETE FROM check_ins WHERE id = 6`,
      checkIn(9, 2, 1, '2026-02-03', '2026-02-03T19:00:00.000Z'),
      // Moved to the other customer, onto a later day of its own.
      `UPDATE check_ins SET customer_id = 2, local_date = '2026-02-05', created_at = '2026-02-05T18:00:00.000Z' WHERE id = 4`,
    ]
    const sameDay = (sqlite: typeof before) =>
      sqlite.query('SELECT * FROM same_day_check_ins ORDER BY 1, 2, 3').all()
    for (const statement of statements) {
      before.run(statement)
      after.run(statement)
      expect({ statement, rows: sameDay(after) }).toEqual({ statement, rows: sameDay(before) })
    }
    expect(sameDay(after)).toEqual([
      { local_date: '2026-02-01', customer_id: 2, check_in_id: 7 },
      { local_date: '2026-02-01', customer_id: 2, check_in_id: 8 },
      { local_date: '2026-02-02', customer_id: 1, check_in_id: 2 },
      { local_date: '2026-02-02', customer_id: 1, check_in_id: 3 },
      { local_date: '2026-02-03', customer_id: 2, check_in_id: 5 },
      { local_date: '2026-02-03', customer_id: 2, check_in_id: 9 },
    ])
    expect(latestDates()).toEqual([
      { id: 1, latest_check_in_date: '2026-02-02' },
      { id: 2, latest_check_in_date: '2026-02-05' },
    ])
    for (const { close } of opened) await close()
  })

  test("0019's catch-up keeps the check-in metrics' tables as 0018's insert trigger did", async () => {
    const opened = [openDatabase(':memory:'), openDatabase(':memory:')]
    for (const { db } of opened) await migrateBefore(db, '0019_check_in_metrics_catch_up')
    const [before, after] = opened.map((o) => o.sqlite) as [
      (typeof opened)[0]['sqlite'],
      (typeof opened)[0]['sqlite'],
    ]
    const stamp = "'2026-11-22T00:00:00.000Z'"
    const checkIn = (id: number, customer: number, gym: number, count: number, day: string, at: string) =>
      `INSERT INTO check_ins (id, customer_id, gym_id, entry_method, customer_membership_id, check_in_count, local_date, created_at, updated_at)
        VALUES (${id}, ${customer}, ${gym}, 'MEM', 1, ${count}, '${day}', '${at}', '${at}')`
    for (const sqlite of [before, after])
      for (const statement of [
        `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp}), (2, 'Cave', 'Pacific/Auckland', ${stamp}, ${stamp})`,
        `INSERT INTO customers (id, first_name, last_name, birthday, created_at, updated_at) VALUES (1, 'Lynn', 'Hill', '1961-01-03', ${stamp}, ${stamp}), (2, 'Alex', 'Honnold', '1985-08-17', ${stamp}, ${stamp})`,
        `INSERT INTO membership_types (id, name, status, purchase_type, interval, price_cents, created_at, updated_at) VALUES (7, 'Monthly', 'ACT', 'REC', 'MON', 6500, ${stamp}, ${stamp})`,
        `INSERT INTO customer_memberships (id, membership_type_id, owner_id, status, start_date, created_at, updated_at) VALUES (1, 7, 1, 'ACT', '2026-01-01', ${stamp}, ${stamp})`,
        checkIn(1, 1, 1, 1, '2026-02-01', '2026-02-01T18:00:00.000Z'),
        checkIn(2, 1, 1, 2, '2026-02-02', '2026-02-02T18:00:00.000Z'),
      ])
        sqlite.run(statement)
    const facts = (sqlite: typeof before) =>
      [
        'SELECT * FROM check_in_day_counts WHERE check_ins > 0 ORDER BY 1, 2, 3, 4',
        'SELECT * FROM product_first_uses ORDER BY 1, 2, 3',
        'SELECT * FROM customer_first_visit_days ORDER BY 1',
        'SELECT * FROM same_day_check_ins ORDER BY 1, 2, 3',
      ].map((query) => sqlite.query(query).all())
    const untouched = facts(after)
    await migrations['0019_check_in_metrics_catch_up']!.up(opened[1]!.db)
    // The catch-up of this checkout reads and writes the tables of the migrations after 0019 too.
    await migrateAfter(opened[1]!.db, '0019_check_in_metrics_catch_up')
    // The check-ins before it were counted by the trigger it drops: counted_through is the last.
    expect(after.query('SELECT * FROM check_in_metrics_state').all()).toEqual([{ id: 1, counted_through: 2 }])
    expect(facts(after)).toEqual(untouched)
    expect(
      after.query(`SELECT name FROM pragma_table_info('customers') WHERE name LIKE 'latest%'`).all(),
    ).toEqual([])

    const statements = [
      // The same local day at the other gym, a UTC day earlier; then a third time, back at the first.
      checkIn(3, 1, 2, 3, '2026-02-02', '2026-02-01T20:00:00.000Z'),
      checkIn(4, 1, 1, 4, '2026-02-02', '2026-02-03T02:00:00.000Z'),
      checkIn(5, 2, 2, 1, '2026-02-03', '2026-02-02T21:00:00.000Z'),
      // Recorded late, before the customer's first visit on record.
      checkIn(6, 2, 1, 2, '2026-02-01', '2026-02-01T19:00:00.000Z'),
      `DELETE FROM check_ins WHERE id = 2`,
      // The newest deleted, and its id written again.
      `DELETE FROM check_ins WHERE id = 6`,
      checkIn(6, 2, 1, 2, '2026-02-03', '2026-02-03T18:00:00.000Z'),
      `UPDATE check_ins SET customer_id = 2, local_date = '2026-02-05', created_at = '2026-02-05T18:00:00.000Z' WHERE id = 4`,
    ]
    for (const statement of statements) {
      before.run(statement)
      after.run(statement)
      await bringCheckInMetricsCurrent(opened[1]!.db)
      expect({ statement, rows: facts(after) }).toEqual({ statement, rows: facts(before) })
    }
    // And with nothing brought current until the end.
    for (const statement of [
      checkIn(7, 1, 1, 5, '2026-02-06', '2026-02-06T18:00:00.000Z'),
      checkIn(8, 1, 1, 6, '2026-02-06', '2026-02-06T19:00:00.000Z'),
      `UPDATE check_ins SET local_date = '2026-02-03', created_at = '2026-02-03T19:00:00.000Z' WHERE id = 7`,
      `DELETE FROM check_ins WHERE id = 5`,
    ]) {
      before.run(statement)
      after.run(statement)
    }
    await bringCheckInMetricsCurrent(opened[1]!.db)
    expect(facts(after)).toEqual(facts(before))
    for (const { close } of opened) await close()
  })

  test('0020 moves the counted check-ins into check_in_local_times, drops check_ins_local_day, and keeps the table as check-ins change', async () => {
    const { db, sqlite, close } = openDatabase(':memory:')
    await migrateBefore(db, '0020_check_in_local_times')
    const stamp = "'2026-11-22T00:00:00.000Z'"
    const checkIn = (id: number, customer: number, method: string, time: string, count: number) =>
      `INSERT INTO check_ins (id, customer_id, gym_id, entry_method, customer_membership_id, check_in_count, local_date, local_time, created_at, updated_at)
        VALUES (${id}, ${customer}, 1, '${method}', ${method === 'MEM' ? 1 : 'NULL'}, ${count}, '2026-02-01', '${time}', ${stamp}, ${stamp})`
    for (const statement of [
      `INSERT INTO gyms (id, name, time_zone, created_at, updated_at) VALUES (1, 'Barn', 'America/Denver', ${stamp}, ${stamp})`,
      `INSERT INTO customers (id, first_name, last_name, birthday, created_at, updated_at) VALUES (1, 'Lynn', 'Hill', '1961-01-03', ${stamp}, ${stamp}), (2, 'Alex', 'Honnold', '1985-08-17', ${stamp}, ${stamp})`,
      `INSERT INTO membership_types (id, name, status, purchase_type, interval, price_cents, created_at, updated_at) VALUES (7, 'Monthly', 'ACT', 'REC', 'MON', 6500, ${stamp}, ${stamp})`,
      `INSERT INTO customer_memberships (id, membership_type_id, owner_id, status, start_date, created_at, updated_at) VALUES (1, 7, 1, 'ACT', '2026-01-01', ${stamp}, ${stamp})`,
      checkIn(1, 1, 'MEM', '09:00:00', 1),
      checkIn(2, 2, 'FRE', '10:00:00', 1),
      checkIn(3, 1, 'MEM', '11:00:00', 2),
      // The first two counted by the catch-up before the migration, the third not yet.
      `UPDATE check_in_metrics_state SET counted_through = 2`,
    ])
      sqlite.run(statement)
    await migrations['0020_check_in_local_times']!.up(db)
    const rows = () =>
      sqlite
        .query(
          'SELECT check_in_id, local_time, entry_method, product_id, customer_id FROM check_in_local_times ORDER BY 1',
        )
        .all()
    const row = (
      check_in_id: number,
      local_time: string,
      entry_method: string,
      product_id: number,
      customer_id: number,
    ) => ({
      check_in_id,
      local_time,
      entry_method,
      product_id,
      customer_id,
    })
    expect(rows()).toEqual([row(1, '09:00:00', 'MEM', 7, 1), row(2, '10:00:00', 'FRE', 0, 2)])
    expect(sqlite.query(`SELECT name FROM sqlite_master WHERE name = 'check_ins_local_day'`).all()).toEqual(
      [],
    )

    // A counted check-in changed is written again as it now is; one deleted goes; one not counted
    // yet is left to the catch-up, which writes it as it is by then.
    sqlite.run(`UPDATE check_ins SET local_time = '09:30:00', customer_id = 2 WHERE id = 1`)
    sqlite.run(`DELETE FROM check_ins WHERE id = 2`)
    sqlite.run(`UPDATE check_ins SET local_time = '11:45:00' WHERE id = 3`)
    expect(rows()).toEqual([row(1, '09:30:00', 'MEM', 7, 2)])
    // Today's catch-up also reads 0030's list of check-ins that arrived below the ids counted.
    await migrations['0030_check_in_metrics_late']!.up(db)
    await bringCheckInMetricsCurrent(db)
    expect(rows()).toEqual([row(1, '09:30:00', 'MEM', 7, 2), row(3, '11:45:00', 'MEM', 7, 1)])
    await close()
  })

  test('a file database runs in WAL mode with foreign keys, FULL sync and a busy timeout', async () => {
    const dir = await import('node:fs').then((fs) => fs.mkdtempSync('/tmp/belay-db-'))
    const { sqlite, close } = openDatabase(join(dir, 'test.sqlite3'))
    const pragma = (name: string) => Object.values(sqlite.query(`PRAGMA ${name}`).get() as object)[0]
    expect(pragma('journal_mode')).toBe('wal')
    expect(pragma('foreign_keys')).toBe(1)
    expect(pragma('synchronous')).toBe(2) // FULL
    expect(pragma('busy_timeout')).toBe(5000)
    await close()
  })
})

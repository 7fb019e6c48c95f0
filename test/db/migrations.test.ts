import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { migrations } from '../../migrations/index.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { migrateToLatest, migrationStatus } from '../../src/db/migrator.ts'
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
    const names = Object.keys(migrations)
    for (const name of names.slice(0, names.indexOf('0005_sales_catalogue'))) await migrations[name]!.up(db)
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

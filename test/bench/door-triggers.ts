/**
 * What the check-in metrics' triggers and indexes add to the door's write, in-process on a copy of a
 * migrated `large` set: the door's own statements (src/core/door/writes.ts: the check-in row and the
 * customer's count) for members with an active membership, 16 check-ins to a transaction as group
 * commit gathers them in a rush, on copies of the file in turn, round after round:
 *   - as migrated: the metrics' indexes on check_ins kept up (METRIC_INDEXES, those the file has),
 *     and every trigger an insert into check_ins fires;
 *   - without those triggers; without those indexes; without either (the door's write as it was
 *     before the metrics);
 *   - with --beside OTHER_FILE, a copy of that file as it is too (the same set migrated by another
 *     build, so that two builds' triggers are measured in the same run on the same rows).
 * With --locations N, each copy gets N more locations like the demo's first one and the check-ins
 * go round all of them, as the door benchmark's controllers each stand at a fresh location of
 * their own: what a trigger costs may grow with the organization's locations.
 * Reported per copy: the median over rounds of this process's CPU per check-in (synchronous=OFF, so
 * it is SQLite's work without the wait for the disk) and of the WAL pages each commit writes (each
 * one a 4 KiB write the commit's fsync waits for in production).
 *
 *   npx bun run test/bench/door-triggers.ts [--db MIGRATED_FILE] [--beside OTHER_FILE] [--rounds 8]
 *     [--transactions 100] [--locations 0]
 *
 * Without --db it builds build/out/belay if it is older than the sources and seeds the `large` set
 * into a temporary directory; MIGRATED_FILE is such a set migrated by this checkout (or an older
 * seed after `belay migrate`), only copied.
 */
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { numberArg, stringArg } from './_args.ts'
import { buildIfNeeded, seedLarge } from './_door-setup.ts'
import { activeMembers, writeMemberCheckIn } from './_door-writes.ts'
import { formatTable, loadAverage } from './_table.ts'

const ROUNDS = numberArg('--rounds', 8)
const TRANSACTIONS = numberArg('--transactions', 100)
const LOCATIONS = numberArg('--locations', 0)
const PER_TRANSACTION = 16
const GIVEN = stringArg('--db')
const BESIDE = stringArg('--beside')

const METRIC_INDEXES = ['check_ins_local_day', 'check_ins_first_visit', 'check_ins_customer_local_day']

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

console.log(`load average ${loadAverage()}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-door-triggers-'))
try {
  const seeded = GIVEN ?? join(dir, 'seeded.sqlite3')
  if (!GIVEN) {
    buildIfNeeded()
    console.log(seedLarge(seeded, 1, dir).split('\n')[0])
  }
  const schema = new Database(seeded, { readonly: true })
  const insertTriggers = schema
    .query<{ name: string }, []>(
      `SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'check_ins'
         AND sql LIKE '%AFTER INSERT ON check_ins%' ORDER BY name`,
    )
    .all()
    .map((row) => row.name)
  const indexes = schema
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'check_ins'",
    )
    .all()
    .map((row) => row.name)
    .filter((name) => METRIC_INDEXES.includes(name))
  schema.close()
  const dropTriggers = insertTriggers.map((t) => `DROP TRIGGER ${t}`)
  const dropIndexes = indexes.map((i) => `DROP INDEX ${i}`)
  const copies: Array<{ name: string; from: string; drop: string[] }> = [
    { name: 'as migrated', from: seeded, drop: [] },
    { name: `without the triggers ${insertTriggers.join(', ')}`, from: seeded, drop: dropTriggers },
    { name: `without the indexes ${indexes.join(', ')}`, from: seeded, drop: dropIndexes },
    { name: 'without either', from: seeded, drop: [...dropTriggers, ...dropIndexes] },
    ...(BESIDE ? [{ name: `${BESIDE} as it is`, from: BESIDE, drop: [] }] : []),
  ]
  const opened = copies.map(({ name, from, drop }, i) => {
    const file = join(dir, `copy-${i}.sqlite3`)
    copyFileSync(from, file)
    const sqlite = new Database(file)
    sqlite.run('PRAGMA journal_mode = WAL')
    sqlite.run('PRAGMA synchronous = OFF')
    // The WAL's size after a round is what the round's commits wrote.
    sqlite.run('PRAGMA wal_autocheckpoint = 0')
    for (const statement of drop) sqlite.run(statement)
    for (let n = 1; n <= LOCATIONS; n++)
      sqlite.run(
        `INSERT INTO gyms (name, time_zone, combine_same_day_check_ins, created_at, updated_at)
           SELECT 'Bench location ' || ?, time_zone, combine_same_day_check_ins, created_at, updated_at
           FROM gyms WHERE id = 1`,
        [n],
      )
    const gymIds = sqlite
      .query<{ id: number }, []>('SELECT id FROM gyms ORDER BY id')
      .all()
      .map((gym) => gym.id)
    return { name, file, sqlite, gymIds, cpuUs: [] as number[], walPages: [] as number[] }
  })
  const members = activeMembers(opened[0]!.sqlite)
  if (members.length === 0)
    throw new Error(`${seeded}: no active memberships (a large set migrated by this checkout?)`)
  const start = Date.now()
  let scan = 0
  for (let round = 0; round < ROUNDS; round++) {
    const first = scan
    for (const copy of round % 2 === 0 ? opened : [...opened].reverse()) {
      copy.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
      scan = first
      const cpu0 = process.cpuUsage()
      for (let t = 0; t < TRANSACTIONS; t++) {
        copy.sqlite.run('BEGIN IMMEDIATE')
        for (let i = 0; i < PER_TRANSACTION; i++, scan++) {
          const member = members[scan % members.length]!
          const gymId = LOCATIONS > 0 ? copy.gymIds[scan % copy.gymIds.length]! : member.gymId
          writeMemberCheckIn(copy.sqlite, member, new Date(start + scan * 1000), gymId)
        }
        copy.sqlite.run('COMMIT')
      }
      const cpu = process.cpuUsage(cpu0)
      copy.cpuUs.push((cpu.user + cpu.system) / (TRANSACTIONS * PER_TRANSACTION))
      copy.walPages.push(statSync(`${copy.file}-wal`).size / (4096 + 24) / TRANSACTIONS)
    }
  }
  console.log(
    `\n${ROUNDS} rounds of ${TRANSACTIONS} transactions of ${PER_TRANSACTION} check-ins per copy` +
      `${LOCATIONS > 0 ? `, at ${opened[0]!.gymIds.length} locations in turn` : ''} (medians over rounds)\n`,
  )
  console.log(
    formatTable([
      ['copy', 'CPU µs per check-in', 'WAL pages per commit'],
      ...opened.map((c) => [c.name, median(c.cpuUs).toFixed(1), median(c.walPages).toFixed(1)]),
    ]),
  )
  console.log(`\nload average ${loadAverage()}`)
  for (const copy of opened) copy.sqlite.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}

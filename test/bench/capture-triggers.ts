/**
 * What a site's capture (src/core/sites/capture.ts) adds to the door's write, in-process on copies
 * of the `small` demo set: the door's two statements (src/core/door/writes.ts: the check-in row and
 * the customer's count) run as group commit runs them in the evening (a few check-ins a
 * transaction, each in a savepoint, the site's mark first, `synchronous=NORMAL` so that the commit
 * writes the WAL without waiting for the disk), on copies in turn, round after round:
 *   - alone: a box without a hub;
 *   - as a site: registered and attached, every capture trigger in place;
 *   - as a site without the check-in's trigger, without the customer's update triggers (its row's
 *     and its count's), and without any (the mark at the start of each transaction left): what
 *     each outbox row costs.
 * Reported per copy: the median over rounds of this process's CPU per check-in.
 *
 *   npx bun run test/bench/capture-triggers.ts [--rounds 10] [--transactions 250] [--per 6]
 */
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { attachSite, registerSite } from '../../src/core/sites/attach.ts'
import { writeTransactionHookOf } from '../../src/db/write-hooks.ts'
import { numberArg } from './_args.ts'
import { buildIfNeeded, seedDemo } from './_door-setup.ts'
import { activeMembers, writeMemberCheckIn } from './_door-writes.ts'
import { formatTable, loadAverage } from './_table.ts'

const ROUNDS = numberArg('--rounds', 10)
const TRANSACTIONS = numberArg('--transactions', 250)
const PER_TRANSACTION = numberArg('--per', 6)

const dropping =
  (...triggers: string[]) =>
  (sqlite: Database) => {
    for (const trigger of triggers) sqlite.run(`DROP TRIGGER IF EXISTS "${trigger}"`)
  }
const allCaptureTriggers = (sqlite: Database) =>
  sqlite
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_capture_%'",
    )
    .all()
    .map((row) => row.name)

const copies: Array<{ name: string; site: boolean; change?: (sqlite: Database) => void }> = [
  { name: 'alone', site: false },
  { name: 'as a site', site: true },
  {
    name: "as a site, without the check-in's trigger",
    site: true,
    change: dropping('sync_capture_check_ins_insert'),
  },
  {
    name: "as a site, without the customer's update triggers",
    site: true,
    change: dropping('sync_capture_customers_update', 'sync_capture_customers_update_counters'),
  },
  {
    name: 'as a site, without any capture trigger',
    site: true,
    change: (sqlite) => dropping(...allCaptureTriggers(sqlite))(sqlite),
  },
]

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

console.log(`load average ${loadAverage()}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-capture-'))
try {
  buildIfNeeded()
  const seeded = join(dir, 'seeded.sqlite3')
  console.log(seedDemo(seeded, 'small', 1, dir).split('\n')[0])
  const opened = copies.map(({ name, site, change }, i) => {
    const file = join(dir, `copy-${i}.sqlite3`)
    copyFileSync(seeded, file)
    const sqlite = new Database(file)
    sqlite.run('PRAGMA journal_mode = WAL')
    sqlite.run('PRAGMA synchronous = NORMAL')
    if (site) {
      registerSite(
        sqlite,
        { site: 'bench', databaseId: 'bench', siteNumber: 1, organization: 'bench' },
        '000000000000001-000000',
      )
      attachSite(sqlite, () => Date.now())
    }
    change?.(sqlite)
    return { name, sqlite, cpuUs: [] as number[] }
  })
  const members = activeMembers(opened[0]!.sqlite)
  if (members.length === 0) throw new Error('the small set has no active memberships')
  const start = Date.now()
  let scan = 0
  for (let round = 0; round < ROUNDS; round++) {
    const first = scan
    for (const copy of round % 2 === 0 ? opened : [...opened].reverse()) {
      const { sqlite } = copy
      sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
      const markTransaction = writeTransactionHookOf(sqlite)
      scan = first
      const cpu0 = process.cpuUsage()
      for (let t = 0; t < TRANSACTIONS; t++) {
        sqlite.run('BEGIN IMMEDIATE')
        markTransaction?.()
        for (let i = 0; i < PER_TRANSACTION; i++, scan++) {
          sqlite.run('SAVEPOINT work')
          writeMemberCheckIn(sqlite, members[scan % members.length]!, new Date(start + scan * 1000))
          sqlite.run('RELEASE work')
        }
        sqlite.run('COMMIT')
      }
      const cpu = process.cpuUsage(cpu0)
      // The first round warms the statements and the page cache.
      if (round > 0) copy.cpuUs.push((cpu.user + cpu.system) / (TRANSACTIONS * PER_TRANSACTION))
    }
  }
  console.log(
    `\n${ROUNDS - 1} rounds (after one to warm up) of ${TRANSACTIONS} transactions of ${PER_TRANSACTION} check-ins per copy\n`,
  )
  const alone = median(opened[0]!.cpuUs)
  console.log(
    formatTable([
      ['copy', 'CPU µs a check-in (median)', 'more than alone'],
      ...opened.map((copy) => [
        copy.name,
        median(copy.cpuUs).toFixed(1),
        (median(copy.cpuUs) - alone).toFixed(1),
      ]),
    ]),
  )
  console.log(`\nload average ${loadAverage()}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}

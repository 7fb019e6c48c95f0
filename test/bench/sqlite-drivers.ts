/**
 * SQLite driver benchmark: bun:sqlite (what Belay uses) against better-sqlite3 (the other candidate).
 *
 *   npx bun run test/bench/sqlite-drivers.ts        (or `npm run bench`, which runs every benchmark)
 *
 * better-sqlite3 is not a dependency. To include it, install it without saving and remove it after:
 *
 *   npm install --no-save better-sqlite3@13 && npx bun run test/bench/sqlite-drivers.ts
 *   npm uninstall --no-save better-sqlite3
 *
 * (Pin @13: under Node < 22 npm picks 12.x, a V8 addon that Bun refuses to load; 13.x is Node-API.)
 *
 * Each driver gets its own temporary FILE database (in os.tmpdir(), so TMPDIR picks the disk) with the
 * PRAGMAs of src/db/connection.ts, and a 50,000-row table with a unique index. Measured, with a warm-up
 * and a fixed iteration count per round, the median of 5 rounds reported (a round that overruns its
 * 1 s budget stops early, so the whole run stays bounded). The drivers' rounds alternate, so that
 * load from elsewhere on the machine (fsync latency above all) falls on both alike:
 *   1. indexed point selects through a raw prepared statement;
 *   2. the same select built and run through Kysely (our `bunSqliteDialect` for bun:sqlite, Kysely's
 *      own `SqliteDialect` over `new Database(file)` for better-sqlite3, which prepares the statement
 *      anew on every query; an extra row shows better-sqlite3 behind a statement cache like ours);
 *   3. single-row INSERTs in autocommit, i.e. each its own transaction and commit, with
 *      synchronous=FULL (an fsync per commit, what Belay runs) and synchronous=NORMAL;
 *   4. startup: open the (existing) file, apply the PRAGMAs, run `SELECT 1`.
 */
import type { Database as BunDatabase } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely'
import { bunSqliteDialect } from '../../src/db/bun-sqlite-dialect.ts'
import { formatTable } from './_table.ts'

const ROWS = 50_000
const ROUNDS = 5
/** A round that runs longer than this stops early and reports what it did; bounds the whole run. */
const ROUND_BUDGET_MS = 1_000

interface BenchDb {
  member: { id: number; code: string; name: string; created_at: string }
  visit: { id: number; member_id: number; at: string }
}

/** The little of each driver's API the benchmark needs. */
interface Statement {
  get(...params: unknown[]): unknown
  run(...params: unknown[]): unknown
}
interface RawDb {
  exec(sql: string): void
  prepare(sql: string): Statement
  close(): void
}
interface Driver {
  name: string
  /** Driver and SQLite versions, for the header. */
  version: string
  /** Opens `file` with Belay's PRAGMAs. */
  open(file: string): RawDb
  /** Kysely instances over a fresh connection to `file`, each with a label for the table. */
  kyselys(file: string): { label: string; db: Kysely<BenchDb> }[]
}

/** The PRAGMAs of src/db/connection.ts's openDatabase, in its order. */
const PRAGMAS = [
  'PRAGMA journal_mode = WAL',
  'PRAGMA synchronous = FULL',
  'PRAGMA foreign_keys = ON',
  'PRAGMA busy_timeout = 5000',
]

function applyPragmas(db: { exec(sql: string): void }): void {
  for (const pragma of PRAGMAS) db.exec(pragma)
}

async function loadBunSqlite(): Promise<Driver> {
  const { Database } = await import('bun:sqlite')
  const openBun = (file: string): BunDatabase => {
    const sqlite = new Database(file, { create: true, strict: true })
    applyPragmas({ exec: (sql) => sqlite.run(sql) })
    return sqlite
  }
  const probe = new Database(':memory:')
  const sqliteVersion = (probe.query('SELECT sqlite_version() AS v').get() as { v: string }).v
  probe.close()
  return {
    name: 'bun:sqlite',
    version: `Bun ${Bun.version}, SQLite ${sqliteVersion}`,
    open(file) {
      const sqlite = openBun(file)
      return {
        exec: (sql) => void sqlite.run(sql),
        prepare(sql) {
          const statement = sqlite.prepare(sql)
          return {
            get: (...params) => statement.get(...(params as never[])),
            run: (...params) => statement.run(...(params as never[])),
          }
        },
        close: () => sqlite.close(),
      }
    },
    kyselys: (file) => [
      { label: 'kysely', db: new Kysely<BenchDb>({ dialect: bunSqliteDialect(openBun(file)) }) },
    ],
  }
}

/** better-sqlite3's Database, as far as used here (the package is optional and ships no types). */
interface BetterDatabase {
  exec(sql: string): void
  prepare(sql: string): Statement & SqliteStatement
  close(): void
}
type BetterDatabaseClass = new (file: string) => BetterDatabase

/** The driver, or undefined (after saying why) when better-sqlite3 is not installed or Bun cannot load it. */
async function loadBetterSqlite3(): Promise<Driver | undefined> {
  const specifier = 'better-sqlite3' // a variable, so that tsc does not look for the package
  let Database: BetterDatabaseClass
  let packageVersion = '?'
  try {
    Database = (await import(specifier)).default as BetterDatabaseClass
    packageVersion = (await import(`${specifier}/package.json`)).default.version
  } catch {
    console.log('better-sqlite3 not installed: npm install --no-save better-sqlite3')
    console.log('  (under Node < 22 npm picks 12.x, which Bun cannot load: add @13)')
    return undefined
  }
  let sqliteVersion: string
  try {
    // The native addon is loaded by the first `new Database`, not by the import.
    const probe = new Database(':memory:')
    sqliteVersion = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v
    probe.close()
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    console.log(`better-sqlite3 ${packageVersion} is installed but Bun cannot load it: ${reason}`)
    console.log(
      '  better-sqlite3 12.x is a V8 addon; 13.x is Node-API: npm install --no-save better-sqlite3@13',
    )
    return undefined
  }
  const openBetter = (file: string): BetterDatabase => {
    const db = new Database(file)
    applyPragmas(db)
    return db
  }
  return {
    name: 'better-sqlite3',
    version: `better-sqlite3 ${packageVersion}, SQLite ${sqliteVersion}`,
    open: openBetter,
    kyselys(file) {
      const cached = openBetter(file)
      const statements = new Map<string, SqliteStatement>()
      const cachingAdapter: SqliteDatabase = {
        close: () => cached.close(),
        prepare(sql) {
          let statement = statements.get(sql)
          if (!statement) statements.set(sql, (statement = cached.prepare(sql)))
          return statement
        },
      }
      return [
        // Kysely's dialect as documented: a statement prepared for every query.
        {
          label: 'kysely',
          db: new Kysely<BenchDb>({ dialect: new SqliteDialect({ database: openBetter(file) }) }),
        },
        {
          label: 'kysely, stmt cache',
          db: new Kysely<BenchDb>({ dialect: new SqliteDialect({ database: cachingAdapter }) }),
        },
      ]
    },
  }
}

interface Result {
  driver: string
  benchmark: string
  ops: number
  seconds: number
}

interface Round {
  ops: number
  seconds: number
}

/** One measurement: an untimed warm-up, then rounds of a fixed iteration count. */
interface Case {
  driver: string
  benchmark: string
  warmup(): Promise<void>
  round(): Promise<Round>
}

/**
 * `op(i)` `warmup` times, then per round `iterations` times (fewer if the round overruns
 * ROUND_BUDGET_MS). Synchronous: an `await` per operation would cost more than a raw read.
 */
function syncCase(
  driver: string,
  benchmark: string,
  warmup: number,
  iterations: number,
  op: (i: number) => unknown,
): Case {
  let i = 0
  return {
    driver,
    benchmark,
    async warmup() {
      for (let w = 0; w < warmup; w++) op(i++)
    },
    async round() {
      Bun.gc(true)
      const start = Bun.nanoseconds()
      const deadline = start + ROUND_BUDGET_MS * 1e6
      let done = 0
      while (done < iterations) {
        op(i++)
        done++
        if ((done & 63) === 0 && Bun.nanoseconds() > deadline) break
      }
      return { ops: done, seconds: (Bun.nanoseconds() - start) / 1e9 }
    },
  }
}

/** syncCase for an asynchronous operation, awaited one at a time. */
function asyncCase(
  driver: string,
  benchmark: string,
  warmup: number,
  iterations: number,
  op: (i: number) => Promise<unknown>,
): Case {
  let i = 0
  return {
    driver,
    benchmark,
    async warmup() {
      for (let w = 0; w < warmup; w++) await op(i++)
    },
    async round() {
      Bun.gc(true)
      const start = Bun.nanoseconds()
      const deadline = start + ROUND_BUDGET_MS * 1e6
      let done = 0
      while (done < iterations) {
        await op(i++)
        done++
        if ((done & 63) === 0 && Bun.nanoseconds() > deadline) break
      }
      return { ops: done, seconds: (Bun.nanoseconds() - start) / 1e9 }
    },
  }
}

/**
 * Startup: open `file` with the PRAGMAs and run `SELECT 1`; only that is timed, not the close. The
 * caller keeps a connection open meanwhile, so each close is not the file's last one (which would
 * checkpoint the WAL and delete it, and make every following open start from scratch).
 */
function startupCase(driver: Driver, file: string, warmup: number, iterations: number): Case {
  const openOnce = (): number => {
    const start = Bun.nanoseconds()
    const connection = driver.open(file)
    connection.prepare('SELECT 1 AS one').get()
    const elapsed = Bun.nanoseconds() - start
    connection.close()
    return elapsed
  }
  return {
    driver: driver.name,
    benchmark: 'startup: open+PRAGMAs+SELECT 1',
    async warmup() {
      for (let w = 0; w < warmup; w++) openOnce()
    },
    async round() {
      const deadline = Bun.nanoseconds() + ROUND_BUDGET_MS * 1e6
      let elapsed = 0
      let done = 0
      while (done < iterations && Bun.nanoseconds() < deadline) {
        elapsed += openOnce()
        done++
      }
      return { ops: done, seconds: elapsed / 1e9 }
    },
  }
}

/**
 * Warms every case up, then runs ROUNDS rounds with the drivers interleaved (the order rotating each
 * round), so that load from elsewhere on the machine falls on all of them alike. Each case reports
 * its median round.
 */
async function runInterleaved(cases: Case[]): Promise<Result[]> {
  for (const c of cases) await c.warmup()
  const rounds = cases.map((): Round[] => [])
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < cases.length; k++) {
      const index = (k + r) % cases.length
      rounds[index]!.push(await cases[index]!.round())
    }
  }
  const rate = (round: Round) => round.ops / round.seconds
  return cases.map((c, index) => {
    const sorted = rounds[index]!.sort((a, b) => rate(a) - rate(b))
    return { driver: c.driver, benchmark: c.benchmark, ...sorted[Math.floor(sorted.length / 2)]! }
  })
}

const codeOf = (n: number) => `M${String(n).padStart(6, '0')}`

/** The same pseudo-random member codes, in the same order, for every driver and benchmark. */
const LOOKUPS = (() => {
  const codes: string[] = []
  let x = 12345
  for (let i = 0; i < 65_536; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0
    codes.push(codeOf(1 + (x % ROWS)))
  }
  return codes
})()
const lookup = (i: number) => LOOKUPS[i & 65_535]!

function createSchema(db: RawDb): void {
  db.exec(`CREATE TABLE member (
    id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, name TEXT NOT NULL, created_at TEXT NOT NULL)`)
  db.exec(`CREATE TABLE visit (
    id INTEGER PRIMARY KEY, member_id INTEGER NOT NULL REFERENCES member (id), at TEXT NOT NULL)`)
  const insert = db.prepare('INSERT INTO member (id, code, name, created_at) VALUES (?, ?, ?, ?)')
  db.exec('BEGIN')
  for (let n = 1; n <= ROWS; n++) insert.run(n, codeOf(n), `Member ${n}`, '2026-11-22T15:04:05.123Z')
  db.exec('COMMIT')
}

async function benchmark(drivers: Driver[], dir: string): Promise<Result[]> {
  const setups = drivers.map((driver) => {
    const file = join(dir, `${driver.name.replace(/\W/g, '-')}.sqlite3`)
    const db = driver.open(file)
    createSchema(db)
    return { driver, file, db }
  })
  const results: Result[] = []
  let found = 0

  // 1. Raw prepared point select on the unique index.
  const raw = setups.map(({ driver, db }) => {
    const select = db.prepare('SELECT id, name FROM member WHERE code = ?')
    return syncCase(driver.name, 'point select, raw prepared', 5_000, 100_000, (i) => {
      if (select.get(lookup(i))) found++
    })
  })
  results.push(...(await runInterleaved(raw)))

  // 2. The same through Kysely, the query built every time as the app does.
  const kyselys = setups.flatMap(({ driver, file }) =>
    driver.kyselys(file).map(({ label, db }) => ({ driver: driver.name, label, db })),
  )
  const viaKysely = kyselys.map(({ driver, label, db }) =>
    asyncCase(driver, `point select, ${label}`, 2_000, 10_000, async (i) => {
      const row = await db
        .selectFrom('member')
        .select(['id', 'name'])
        .where('code', '=', lookup(i))
        .executeTakeFirst()
      if (row) found++
    }),
  )
  results.push(...(await runInterleaved(viaKysely)))
  for (const { db } of kyselys) await db.destroy()

  // 3. Single-row INSERTs, each in its own (autocommit) transaction: one commit each.
  const at = '2026-11-22T15:04:05.123Z'
  for (const [synchronous, warmup, iterations] of [
    ['FULL', 20, 300],
    ['NORMAL', 200, 3_000],
  ] as const) {
    const inserts = setups.map(({ driver, db }) => {
      db.exec(`PRAGMA synchronous = ${synchronous}`)
      const insert = db.prepare('INSERT INTO visit (member_id, at) VALUES (?, ?)')
      return syncCase(driver.name, `insert txn, synchronous=${synchronous}`, warmup, iterations, (i) =>
        insert.run(1 + (i % ROWS), at),
      )
    })
    results.push(...(await runInterleaved(inserts)))
  }
  for (const { db } of setups) db.exec('PRAGMA synchronous = FULL')

  // 4. Startup (see startupCase about the connections left open meanwhile).
  results.push(
    ...(await runInterleaved(setups.map(({ driver, file }) => startupCase(driver, file, 10, 200)))),
  )

  for (const { db } of setups) db.close()
  if (found === 0) throw new Error('no lookup found a row')
  return results
}

function printTable(results: Result[]): void {
  const rows = results.map((r) => [
    r.driver,
    r.benchmark,
    Math.round(r.ops / r.seconds).toLocaleString('en-US'),
    ((r.seconds / r.ops) * 1e6).toFixed(r.seconds / r.ops < 1e-4 ? 2 : 1),
  ])
  const header = ['driver', 'benchmark', 'ops/s', 'µs/op']
  console.log(formatTable([header, ...rows], { leftColumns: 2, rule: true }))
}

const started = Bun.nanoseconds()
const cpu = cpus()
console.log(
  `SQLite drivers: ${cpu.length} cores (${cpu[0]?.model.trim() ?? '?'}), ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, ${process.platform}-${process.arch}`,
)
const drivers: Driver[] = [await loadBunSqlite()]
const better = await loadBetterSqlite3()
if (better) drivers.push(better)
for (const driver of drivers) console.log(`  ${driver.name}: ${driver.version}`)

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-'))
console.log(`  database files in ${dir}; ${ROWS.toLocaleString('en-US')} rows; median of ${ROUNDS} rounds\n`)
const results: Result[] = []
try {
  results.push(...(await benchmark(drivers, dir)))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
printTable(results)
console.log(
  '\nbun build --compile (checked by hand, not by this script): bun:sqlite is part of the\n' +
    'runtime. better-sqlite3 13 works in the executable only when imported as better-sqlite3/linux-x64\n' +
    '(its .node file is embedded); the plain import looks for build/Release/better_sqlite3.node on disk\n' +
    'at run time and fails once node_modules is gone.',
)
console.log(`\n(${((Bun.nanoseconds() - started) / 1e9).toFixed(1)} s)`)

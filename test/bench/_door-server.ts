/**
 * The door benchmark's own copy of `belay serve`, run from source, for one question the built
 * executable cannot answer: how much of a check-in's time is the fsync. It opens the database as the
 * product does (src/db/connection.ts: WAL, synchronous=FULL), then, in THIS process only and only on
 * the benchmark's temporary file, sets `PRAGMA synchronous` to BENCH_SYNCHRONOUS (FULL or NORMAL).
 * The product's durability is not touched: the executable always runs FULL.
 *
 *   bun run test/bench/_door-server.ts --db FILE --port 0 --host 127.0.0.1
 *   (environment: BENCH_SYNCHRONOUS=FULL|NORMAL, default FULL; BENCH_CHECKPOINTS=sqlite for SQLite's
 *   automatic checkpoints inside commits instead of the checkpointer's)
 *
 * Otherwise it is `serve` as src/main.ts runs it, through the same src/serve.ts: the whole app, the
 * checkpointer and reader threads, the webhook dispatcher, the same "listening" log line on stderr;
 * SIGTERM stops it (so `bun --cpu-prof` writes its profile).
 * Not a benchmark itself: test/bench/run.ts skips files whose name starts with `_`.
 */
import pkg from '../../package.json' with { type: 'json' }
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { consoleLogger as log } from '../../src/lib/log.ts'
import { startServing } from '../../src/serve.ts'

const synchronous = (process.env.BENCH_SYNCHRONOUS ?? 'FULL').toUpperCase()
if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
  throw new Error(`BENCH_SYNCHRONOUS must be FULL or NORMAL, not ${synchronous}`)
}

const config = loadConfig(process.argv.slice(2))
const connection = openDatabase(config.dbPath)
connection.sqlite.run(`PRAGMA synchronous = ${synchronous}`)
await migrateToLatest(connection.db)
const serving = await startServing(connection, config, log, {
  version: `${pkg.version}-bench`,
  // BENCH_CHECKPOINTS=sqlite: SQLite's automatic checkpoints inside commits, to compare.
  backgroundCheckpoints: process.env.BENCH_CHECKPOINTS !== 'sqlite',
})
const actual = (connection.sqlite.query('PRAGMA synchronous').get() as { synchronous: number }).synchronous
log.info('listening', {
  url: serving.url,
  db: config.dbPath,
  synchronous: actual === 2 ? 'FULL' : actual === 1 ? 'NORMAL' : String(actual),
})

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await serving.stop()
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())

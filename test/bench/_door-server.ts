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
 * Otherwise it is `serve` as src/main.ts runs it: the whole app, the checkpointer and reader threads, the webhook
 * dispatcher, the same "listening" log line on stderr, SIGTERM stops it (so `bun --cpu-prof`
 * writes its profile).
 * Not a benchmark itself: test/bench/run.ts skips files whose name starts with `_`.
 */
import pkg from '../../package.json' with { type: 'json' }
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { LoginThrottle } from '../../src/core/login-throttle.ts'
import { TokenCache } from '../../src/core/token-cache.ts'
import { startWebhookDispatcher } from '../../src/core/webhooks/dispatcher.ts'
import { startCheckpointer } from '../../src/db/checkpointer.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { openReader } from '../../src/db/reader.ts'
import { BODY_READ_LIMIT_BYTES } from '../../src/http/body.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { consoleLogger as log } from '../../src/lib/log.ts'

const synchronous = (process.env.BENCH_SYNCHRONOUS ?? 'FULL').toUpperCase()
if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
  throw new Error(`BENCH_SYNCHRONOUS must be FULL or NORMAL, not ${synchronous}`)
}

const config = loadConfig(process.argv.slice(2))
const connection = openDatabase(config.dbPath)
connection.sqlite.run(`PRAGMA synchronous = ${synchronous}`)
await migrateToLatest(connection.db)
// BENCH_CHECKPOINTS=sqlite: SQLite's automatic checkpoints inside commits, to compare.
const checkpointer =
  process.env.BENCH_CHECKPOINTS === 'sqlite'
    ? undefined
    : await startCheckpointer(config.dbPath, connection, log)
const reader = await openReader(config.dbPath, connection.db)

const app = createApp({
  db: connection.db,
  sqlite: connection.sqlite,
  reader: reader.db,
  clock: systemClock,
  log,
  config,
  loginThrottle: new LoginThrottle(systemClock),
  tokenCache: new TokenCache(),
  version: `${pkg.version}-bench`,
})
app.listen({
  hostname: config.host,
  port: config.port,
  reusePort: false,
  maxRequestBodySize: BODY_READ_LIMIT_BYTES,
})
const server = app.server!
const actual = (connection.sqlite.query('PRAGMA synchronous').get() as { synchronous: number }).synchronous
log.info('listening', {
  url: `http://${config.host}:${server.port}`,
  db: config.dbPath,
  synchronous: actual === 2 ? 'FULL' : actual === 1 ? 'NORMAL' : String(actual),
})
const dispatcher = startWebhookDispatcher({
  db: connection.db,
  sqlite: connection.sqlite,
  clock: systemClock,
  log,
})

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await server.stop()
  await dispatcher.stop()
  await reader.close()
  await checkpointer?.stop()
  await connection.close()
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())

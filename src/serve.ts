import { newPinThrottles } from './core/auth/pins.ts'
import { organizationToday } from './api/organization/queries.ts'
import { createApp } from './app.ts'
import type { Config } from './config.ts'
import { LoginGate } from './core/auth/login-gate.ts'
import { LoginThrottle, newAddressThrottle } from './core/auth/login-throttle.ts'
import { TokenCache } from './core/auth/token-cache.ts'
import { startSnapshotSchedule, type SnapshotPlace } from './core/backup/schedule.ts'
import { startScheduleRuns } from './core/classes/schedules.ts'
import { catchUpAtStart } from './core/membership-rollup/catch-up.ts'
import type { Hub } from './core/sites/hub-types.ts'
import { startSite } from './core/sites/site.ts'
import { startWebhookDispatcher } from './core/webhooks/dispatcher.ts'
import { startCheckpointer } from './db/checkpointer.ts'
import { prepareCompiledStatements } from './db/compiled-statement.ts'
import type { Connection } from './db/connection.ts'
import { openReader } from './db/reader.ts'
import { BODY_READ_LIMIT_BYTES } from './http/body.ts'
import { jsonResponse } from './http/error-handler.ts'
import { serverError } from './http/errors.ts'
import { rawPathFallback, rawPathRoutes } from './http/raw-path.ts'
import { NO_SNIFF } from './http/security-headers.ts'
import { Monitoring } from './http/monitoring.ts'
import { withRequestLog } from './http/request-log.ts'
import { RouteIndex } from './http/route-index.ts'
import { systemClock } from './lib/clock.ts'
import type { Logger } from './lib/log.ts'
import { listenError } from './lib/startup-errors.ts'

export interface ServeOptions {
  version: string
  /** Off only to measure SQLite's own checkpoints inside commits (the door benchmark). */
  backgroundCheckpoints?: boolean
  /** The hub this box is a site of (`--hub`), and whether it has just joined from its snapshot. */
  hub?: Hub
  joining?: boolean
}

export interface Serving {
  url: string
  /** Stops everything in order and closes the connection, leaving the WAL empty. */
  stop(): Promise<void>
}

/**
 * Everything `belay serve` runs on a migrated connection: the checkpointer and reader threads, the
 * API listening, the webhook dispatcher, the snapshot schedule, the runs that make schedules'
 * events. Also what the door benchmark's source-run server runs, so the two cannot drift apart.
 */
export async function startServing(
  connection: Connection,
  config: Config,
  log: Logger,
  options: ServeOptions,
): Promise<Serving> {
  // Off the one JavaScript thread the door is answered on: WAL checkpoints, long back-office reads.
  const checkpointer =
    options.backgroundCheckpoints === false
      ? undefined
      : await startCheckpointer(config.dbPath, connection, log)
  const reader = await openReader(config.dbPath, connection.db)
  prepareCompiledStatements(connection.sqlite)
  // A site captures and allocates ids from before anything is served; a box that has just joined
  // applies what the stream holds beyond its snapshot first, so its door decides on today's data.
  const site = options.hub
    ? await startSite({ ...connection, clock: systemClock, log }, options.hub, {
        site: config.site!,
        organization: config.hubOrganization,
        dbPath: config.dbPath,
      })
    : undefined
  if (site && options.joining) await site.caughtUp()
  const monitoring = new Monitoring()
  const snapshots: SnapshotPlace = {
    folder: config.backupDir,
    intervalSeconds: config.backupIntervalSeconds,
    since: systemClock.now(),
  }
  const app = createApp(
    {
      db: connection.db,
      sqlite: connection.sqlite,
      reader: reader.db,
      clock: systemClock,
      log,
      config,
      healthLimits: {
        minFreeBytes: Math.round(config.healthMinFreeMb * 1024 * 1024),
        maxOutboxAgeSeconds: Math.round(config.healthMaxOutboxAgeMinutes * 60),
      },
      loginThrottle: new LoginThrottle(systemClock),
      addressThrottle: newAddressThrottle(systemClock),
      pinThrottles: newPinThrottles(systemClock),
      loginGate: new LoginGate(),
      tokenCache: new TokenCache(),
      monitoring,
      version: options.version,
      snapshots,
      site,
    },
    { precompile: true },
  )
  // Served by Bun directly rather than by Elysia's listen, so that the server's route table holds
  // the patterns that see each raw path (http/raw-path.ts) and everything goes on to the app.
  // reusePort off: a second copy on the same port must fail loudly, not share the port silently.
  // One log line per request, around everything the app answers (http/request-log.ts), and the
  // same measurement counted under the route that served it (http/monitoring.ts).
  const handle = withRequestLog(
    log,
    (request: Request) => app.fetch(request),
    monitoring.requestRecorder(new RouteIndex(() => app.routes)),
  )
  let server: ReturnType<typeof Bun.serve>
  try {
    server = Bun.serve({
      hostname: config.host,
      port: config.port,
      reusePort: false,
      idleTimeout: 30,
      maxRequestBodySize: BODY_READ_LIMIT_BYTES,
      routes: rawPathRoutes(handle),
      fetch: rawPathFallback(handle),
      // Whatever escapes the app is the API's bare 500, logged: never Bun's development page,
      // which shows the failing source to whoever sent the request.
      development: false,
      error(error) {
        log.error('unhandled error', { error: error.stack ?? error.message })
        return jsonResponse(500, serverError().body, NO_SNIFF)
      },
    })
  } catch (error) {
    throw listenError(config.host, config.port, error)
  }
  // Handlers read the client's address from Elysia's `server` (the login throttle counts failures
  // per address). It is given only that: with a whole server, Elysia would reload it with its own
  // routes whenever the app recompiles, dropping the raw-path patterns.
  app.server = {
    requestIP: (request: Request) => server.requestIP(request),
  } as unknown as typeof app.server
  // Webhooks go out from the outbox beside the API; a check-in never waits for them.
  const dispatcher = startWebhookDispatcher({
    db: connection.db,
    sqlite: connection.sqlite,
    clock: systemClock,
    log,
  })
  // Snapshots are copied on a thread of their own, beside the door.
  const schedule = startSnapshotSchedule(config.dbPath, snapshots, config.backupKeep, log, systemClock)
  // The days the membership rollup is missing (all history on the first start after the upgrade),
  // rolled in short transactions beside the door.
  const stopRollup = new AbortController()
  const rollup = catchUpAtStart(
    connection.db,
    await organizationToday({ db: connection.db, clock: systemClock }),
    log,
    stopRollup.signal,
  ).then(() => releaseStartupMemory(connection.sqlite))
  // The events event types' schedules call for as days pass: at once, then every hour.
  const scheduleRuns = startScheduleRuns({ db: connection.db, clock: systemClock, log })

  return {
    url: `http://${config.host}:${server.port}`,
    async stop() {
      await server.stop()
      await site?.stop()
      await options.hub?.close()
      stopRollup.abort()
      await rollup
      await scheduleRuns.stop()
      await schedule.stop()
      // Requests in flight are abandoned (still pending, sent again after the next start).
      await dispatcher.stop()
      await reader.close()
      await checkpointer?.stop()
      // Leave everything in the database file: an empty WAL, whatever connection closes last.
      connection.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
      await connection.close()
    },
  }
}

/**
 * Gives back the memory of serve's start-up work, which serving never needs again: migrations and
 * the rollup's catch-up read years of history and write thousands of days of rows, leaving the
 * writer connection's page caches full (shrink_memory frees every page SQLite is not using) and
 * their JavaScript garbage on the heap, which an idle server may not collect for a long while. One
 * full collection, once, before the door is busy.
 */
function releaseStartupMemory(sqlite: Connection['sqlite']): void {
  sqlite.run('PRAGMA shrink_memory')
  Bun.gc(true)
}

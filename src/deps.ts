import type { Database as BunDatabase } from 'bun:sqlite'
import type { Config } from './config.ts'
import type { SnapshotPlace } from './core/backup/schedule.ts'
import type { Db } from './db/connection.ts'
import type { Connection } from './db/connection.ts'
import type { Clock } from './lib/clock.ts'
import { silentLogger, type Logger } from './lib/log.ts'
import { Monitoring } from './http/monitoring.ts'
import type { SiteView } from './core/sites/site.ts'
import { LoginGate } from './core/auth/login-gate.ts'
import { LoginThrottle, newAddressThrottle } from './core/auth/login-throttle.ts'
import { TokenCache } from './core/auth/token-cache.ts'
import { newPinThrottles, type PinThrottles } from './core/auth/pins.ts'

/**
 * What the API's handlers can reach. Built once in serve.ts (or per test file). An engine under
 * core/ never takes it whole: it names the few things it uses, and a handler passes its Deps.
 */
export interface Deps {
  db: Db
  /**
   * The same connection's raw handle, for the door's synchronous transaction (see
   * core/door/record.ts). Use it only inside `db.connection().execute(...)`, which holds the
   * connection's lock (db/bun-sqlite-dialect.ts), so nothing interleaves with Kysely's own
   * transactions; writes go through db/sync-transaction.ts, which commits them durably.
   */
  sqlite: BunDatabase
  /**
   * For long reads (reports, lists, searches): a read-only connection on a worker thread
   * (db/reader.ts), so they do not hold the thread the door is answered on. It sees every committed
   * write, never the request's own uncommitted ones. The same Kysely as `db` for ':memory:' (tests).
   */
  reader: Db
  clock: Clock
  log: Logger
  config: Pick<
    Config,
    'publicUrl' | 'tokenLifetimeHours' | 'sessionIdleHours' | 'sessionMaxAgeHours' | 'dbPath'
  >
  /** /healthz's thresholds; defaults in api/health/routes.ts. Tests set them to make a check fail. */
  healthLimits?: { minFreeBytes?: number; maxOutboxAgeSeconds?: number }
  /** Failed logins per username (ten in 15 minutes). */
  loginThrottle: LoginThrottle
  /** Failed logins per client address, whatever the username. */
  addressThrottle: LoginThrottle
  /** Wrong PINs (PIN mode) per acting staff email and per signed-in desk account. */
  pinThrottles: PinThrottles
  /** How many password verifications run and wait at once (see core/auth/login-gate.ts). */
  loginGate: LoginGate
  /** Recently seen valid tokens; clear it after any write to staff_users or auth_tokens. */
  tokenCache: TokenCache
  /** This app's metrics: the request counts kept as it answers, what GET /metrics writes out. */
  monitoring: Monitoring
  version: string
  /** Where serve's snapshots are and how often they come (/healthz, /api/backups/); unset: none. */
  snapshots?: SnapshotPlace
  /** The box as a site of a hub (/api/sites/, /healthz, /metrics); unset: a box on its own. */
  site?: SiteView
}

export interface DepsOptions {
  /** Where the back-office lists read; default the connection itself (as on ':memory:'). */
  reader?: Db
  /** Default a log that writes nothing. */
  log?: Logger
  publicUrl?: string | null
  tokenLifetimeHours?: number | null
  sessionIdleHours?: number
  sessionMaxAgeHours?: number
  /** What config.dbPath says: the folder /healthz's disk check reads. Default ':memory:'. */
  dbPath?: string
  healthLimits?: Deps['healthLimits']
  snapshots?: Deps['snapshots']
  site?: Deps['site']
  loginGate?: LoginGate
  version?: string
}

/**
 * The API's Deps around an open connection, as tests, benchmarks and build/web-api-types.ts (which
 * reads the OpenAPI document off an app) build them: every query on that connection unless `reader`
 * says otherwise, a fresh login throttle, PIN throttles and token cache, a silent log.
 */
export function depsFor(
  connection: Pick<Connection, 'db' | 'sqlite'>,
  clock: Clock,
  options: DepsOptions = {},
): Deps {
  return {
    db: connection.db,
    sqlite: connection.sqlite,
    reader: options.reader ?? connection.db,
    clock,
    log: options.log ?? silentLogger,
    config: {
      publicUrl: options.publicUrl ?? null,
      tokenLifetimeHours: options.tokenLifetimeHours ?? null,
      sessionIdleHours: options.sessionIdleHours ?? 12,
      sessionMaxAgeHours: options.sessionMaxAgeHours ?? 168,
      dbPath: options.dbPath ?? ':memory:',
    },
    healthLimits: options.healthLimits,
    snapshots: options.snapshots,
    site: options.site,
    loginThrottle: new LoginThrottle(clock),
    addressThrottle: newAddressThrottle(clock),
    pinThrottles: newPinThrottles(clock),
    loginGate: options.loginGate ?? new LoginGate(),
    tokenCache: new TokenCache(),
    monitoring: new Monitoring(),
    version: options.version ?? 'test',
  }
}

import { MIN_FREE_BYTES } from './db/disk.ts'
import { SITE_NAME, SITE_NAME_RULE } from './domain/sites.ts'
import { MAX_OUTBOX_AGE_SECONDS } from './domain/webhooks.ts'
import { dirname, join } from 'node:path'
import { isKnownTimeZone } from './lib/time-zones.ts'

/**
 * Every setting of the executable: its flag, environment variable and default, in one place.
 * A flag beats the environment, which beats the default. The README's settings table mirrors this.
 */
export interface Config {
  host: string
  port: number
  dbPath: string
  /** When set, absolute URLs in responses use this origin instead of the request's Host. */
  publicUrl: string | null
  /** Token lifetime in hours; null means tokens never expire (DRF's default). */
  tokenLifetimeHours: number | null
  /** A browser session (POST /api/login/) ends after this many hours without a request. */
  sessionIdleHours: number
  /** A browser session ends this many hours after its login, however busy. */
  sessionMaxAgeHours: number
  /** First-start bootstrap: used only when the database has no organization yet. */
  adminEmail: string | null
  adminPassword: string | null
  gymName: string
  timeZone: string
  /** /healthz fails below this much free space in the database's folder, in MiB. */
  healthMinFreeMb: number
  /** /healthz fails when a webhook event has waited longer than this, in minutes. */
  healthMaxOutboxAgeMinutes: number
  /** Where snapshots go: scheduled, pre-migration, and `belay backup`'s by default. */
  backupDir: string
  /** Seconds between serve's scheduled snapshots; null: none are taken. */
  backupIntervalSeconds: number | null
  /** How many scheduled snapshots are kept; older ones are removed after each new one. */
  backupKeep: number
  /** The box is a site of this NATS JetStream hub (its servers); empty: a box on its own. */
  hubServers: string[]
  /** This box's site name on the hub. */
  site: string | null
  /** The organization's name on the hub: its stream and buckets are named for it. */
  hubOrganization: string
  /** `user:password`, or the path of a NATS creds or nkey seed file. */
  hubCreds: string | null
  /** A PEM file of the CA that signed the hub's certificate: TLS to the hub. */
  hubTlsCa: string | null
  /** Copies of the organization's stream the hub keeps, when this box is the one that makes it. */
  hubReplicas: number
}

const MiB = 1024 * 1024

interface Setting {
  key: keyof Config | 'backupInterval'
  flag: string
  env: string
  default: string | null
  help: string
}

export const settings: Setting[] = [
  { key: 'host', flag: '--host', env: 'BELAY_HOST', default: '0.0.0.0', help: 'Address to listen on' },
  { key: 'port', flag: '--port', env: 'BELAY_PORT', default: '8000', help: 'TCP port to listen on' },
  {
    key: 'dbPath',
    flag: '--db',
    env: 'BELAY_DB',
    default: './data/belay.sqlite3',
    help: 'SQLite database file',
  },
  {
    key: 'publicUrl',
    flag: '--public-url',
    env: 'BELAY_PUBLIC_URL',
    default: null,
    help: 'Origin used in absolute URLs (e.g. https://desk.gym.example); default: the request Host',
  },
  {
    key: 'tokenLifetimeHours',
    flag: '--token-lifetime-hours',
    env: 'BELAY_TOKEN_LIFETIME_HOURS',
    default: null,
    help: 'Hours an API token stays valid; default: never expires',
  },
  {
    key: 'sessionIdleHours',
    flag: '--session-idle-hours',
    env: 'BELAY_SESSION_IDLE_HOURS',
    default: '12',
    help: 'Hours without a request after which a browser session (the desk page) ends',
  },
  {
    key: 'sessionMaxAgeHours',
    flag: '--session-max-age-hours',
    env: 'BELAY_SESSION_MAX_AGE_HOURS',
    default: '168',
    help: 'Hours after its login at which a browser session ends, however busy',
  },
  {
    key: 'adminEmail',
    flag: '--admin-email',
    env: 'BELAY_ADMIN_EMAIL',
    default: null,
    help: 'First start: admin email',
  },
  {
    key: 'adminPassword',
    flag: '--admin-password',
    env: 'BELAY_ADMIN_PASSWORD',
    default: null,
    help: 'First start: admin password (default: random, printed once)',
  },
  {
    key: 'gymName',
    flag: '--gym-name',
    env: 'BELAY_GYM_NAME',
    default: 'My Gym',
    help: 'First start: the gym name',
  },
  {
    key: 'timeZone',
    flag: '--time-zone',
    env: 'BELAY_TIME_ZONE',
    default: 'UTC',
    help: 'First start: IANA time zone',
  },
  {
    key: 'healthMinFreeMb',
    flag: '--health-min-free-mb',
    env: 'BELAY_HEALTH_MIN_FREE_MB',
    default: String(MIN_FREE_BYTES / MiB),
    help: "/healthz fails below this many MiB free in the database's folder",
  },
  {
    key: 'healthMaxOutboxAgeMinutes',
    flag: '--health-max-outbox-age-minutes',
    env: 'BELAY_HEALTH_MAX_OUTBOX_AGE_MINUTES',
    default: String(MAX_OUTBOX_AGE_SECONDS / 60),
    help: '/healthz fails when a webhook event (or, with --hub, a change for the hub) has waited this many minutes',
  },
  {
    key: 'backupDir',
    flag: '--backup-dir',
    env: 'BELAY_BACKUP_DIR',
    default: null,
    help: "Folder for snapshots; default: 'backups' beside the database",
  },
  {
    key: 'backupInterval',
    flag: '--backup-interval',
    env: 'BELAY_BACKUP_INTERVAL',
    default: '24h',
    help: 'How often serve takes a snapshot: a number with h, m or s (hours without); 0 or off: never',
  },
  {
    key: 'backupKeep',
    flag: '--backup-keep',
    env: 'BELAY_BACKUP_KEEP',
    default: '14',
    help: 'How many scheduled snapshots to keep (the oldest are removed)',
  },
  {
    key: 'hubServers',
    flag: '--hub',
    env: 'BELAY_HUB_URL',
    default: null,
    help: 'Run as a site of this NATS JetStream hub (nats://host:4222; several comma-separated)',
  },
  { key: 'site', flag: '--site', env: 'BELAY_SITE', default: null, help: "With --hub: this box's site name" },
  {
    key: 'hubOrganization',
    flag: '--hub-organization',
    env: 'BELAY_HUB_ORGANIZATION',
    default: 'belay',
    help: "With --hub: the organization's name on the hub (one hub may carry several)",
  },
  {
    key: 'hubCreds',
    flag: '--hub-creds',
    env: 'BELAY_HUB_CREDS',
    default: null,
    help: "With --hub: the site's credentials, user:password or a NATS creds or nkey seed file",
  },
  {
    key: 'hubTlsCa',
    flag: '--hub-tls-ca',
    env: 'BELAY_HUB_TLS_CA',
    default: null,
    help: "With --hub: the CA certificate (PEM) that signed the hub's: TLS to the hub",
  },
  {
    key: 'hubReplicas',
    flag: '--hub-replicas',
    env: 'BELAY_HUB_REPLICAS',
    default: '1',
    help: "With --hub: copies of the organization's stream the hub keeps: 3 on a cluster of three",
  },
]

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 }

/** '24h', '30m', '90s', '6' (hours) -> seconds; '0' and 'off' -> null (no snapshots). */
export function parseInterval(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([hms]?)\s*$/i.exec(text)
  if (text.trim().toLowerCase() === 'off') return null
  if (!m) throw new ConfigError(`invalid backup interval ${text} (e.g. 24h, 30m, 90s, or off)`)
  const seconds = Math.round(Number(m[1]) * UNIT_SECONDS[(m[2] || 'h').toLowerCase()]!)
  return seconds === 0 ? null : seconds
}

export class ConfigError extends Error {}

/** Reads settings from `--flag value` / `--flag=value` arguments and the environment. */
export function loadConfig(args: string[], env: Record<string, string | undefined> = process.env): Config {
  const fromArgs = new Map<string, string>()
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const eq = arg.indexOf('=')
    const flag = eq > 0 ? arg.slice(0, eq) : arg
    if (!settings.some((s) => s.flag === flag)) throw new ConfigError(`unknown option ${arg}`)
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i]
    if (value === undefined) throw new ConfigError(`${flag} needs a value`)
    fromArgs.set(flag, value)
  }
  const raw = (s: Setting): string | null => fromArgs.get(s.flag) ?? (env[s.env] || null) ?? s.default
  const values = Object.fromEntries(settings.map((s) => [s.key, raw(s)])) as Record<
    Setting['key'],
    string | null
  >

  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`invalid port ${values.port}`)
  const lifetime = values.tokenLifetimeHours === null ? null : Number(values.tokenLifetimeHours)
  if (lifetime !== null && !(lifetime > 0))
    throw new ConfigError('token lifetime must be a positive number of hours')
  const sessionIdle = Number(values.sessionIdleHours)
  if (!(sessionIdle > 0)) throw new ConfigError('session idle time must be a positive number of hours')
  const sessionMaxAge = Number(values.sessionMaxAgeHours)
  if (!(sessionMaxAge > 0)) throw new ConfigError('session maximum age must be a positive number of hours')
  if (!isKnownTimeZone(values.timeZone!)) throw new ConfigError(`unknown time zone ${values.timeZone}`)
  const minFreeMb = Number(values.healthMinFreeMb)
  if (!(minFreeMb >= 0)) throw new ConfigError('minimum free space must be a number of MiB, 0 or more')
  const maxOutboxAge = Number(values.healthMaxOutboxAgeMinutes)
  if (!(maxOutboxAge > 0)) throw new ConfigError('maximum outbox age must be a positive number of minutes')
  let publicUrl = values.publicUrl
  if (publicUrl !== null) {
    try {
      publicUrl = new URL(publicUrl).origin
    } catch {
      throw new ConfigError(`invalid public URL ${values.publicUrl}`)
    }
  }
  const keep = Number(values.backupKeep)
  if (!Number.isInteger(keep) || keep < 1)
    throw new ConfigError(`--backup-keep takes a whole number from 1, not ${values.backupKeep}`)
  const hubServers = (values.hubServers ?? '')
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '')
  if (hubServers.length > 0 && values.site === null)
    throw new ConfigError('--hub needs --site: the name of this box among the sites')
  if (hubServers.length === 0 && values.site !== null) throw new ConfigError('--site needs --hub')
  for (const name of [values.site, values.hubOrganization])
    if (name !== null && !SITE_NAME.test(name))
      throw new ConfigError(`invalid name ${name} for the hub: ${SITE_NAME_RULE}`)
  const hubReplicas = Number(values.hubReplicas)
  if (!Number.isInteger(hubReplicas) || hubReplicas < 1 || hubReplicas > 5)
    throw new ConfigError(`--hub-replicas takes 1 to 5, not ${values.hubReplicas}`)
  return {
    host: values.host!,
    port,
    dbPath: values.dbPath!,
    publicUrl,
    tokenLifetimeHours: lifetime,
    sessionIdleHours: sessionIdle,
    sessionMaxAgeHours: sessionMaxAge,
    adminEmail: values.adminEmail,
    adminPassword: values.adminPassword,
    gymName: values.gymName!,
    timeZone: values.timeZone!,
    healthMinFreeMb: minFreeMb,
    healthMaxOutboxAgeMinutes: maxOutboxAge,
    backupDir: values.backupDir ?? join(dirname(values.dbPath!), 'backups'),
    backupIntervalSeconds: parseInterval(values.backupInterval!),
    backupKeep: keep,
    hubServers,
    site: values.site,
    hubOrganization: values.hubOrganization!,
    hubCreds: values.hubCreds,
    hubTlsCa: values.hubTlsCa,
    hubReplicas,
  }
}

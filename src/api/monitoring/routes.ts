import { lastSnapshotAge } from '../../core/backup/snapshots.ts'
import { Elysia, t } from 'elysia'
import { getOutboxBacklog, type OutboxBacklog } from '../../core/webhooks/queries.ts'
import { freeBytesBeside, walSizeBytes } from '../../db/disk.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs } from '../../http/docs.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { PROMETHEUS_CONTENT_TYPE } from '../../lib/prometheus.ts'

/** The path Prometheus scrapes unless told otherwise. */
export const METRICS_PATH = '/metrics'

/**
 * The gauges read at each scrape, beside the counts kept as requests are answered
 * (http/monitoring.ts) and the door's decisions (api/door/routes.ts). One line each.
 */
function registerGauges(deps: Deps) {
  const { registry } = deps.monitoring
  // Both outbox gauges come from one query per scrape: the first read starts it, the second shares it.
  let backlog: Promise<OutboxBacklog> | undefined
  const readBacklog = () =>
    (backlog ??= getOutboxBacklog(deps.db, deps.clock.now()).finally(() => (backlog = undefined)))

  registry.gauge(
    'belay_webhook_outbox_pending',
    'Webhook events written and not yet delivered (or given up on)',
    async () => (await readBacklog()).pending,
  )
  registry.gauge(
    'belay_webhook_outbox_oldest_age_seconds',
    'How long the oldest undelivered webhook event has waited; 0 when none waits',
    async () => (await readBacklog()).oldestAgeSeconds ?? 0,
  )
  registry.gauge(
    'belay_wal_size_bytes',
    "The database's write-ahead log, not yet checkpointed into the database file",
    () => walSizeBytes(deps.config.dbPath),
  )
  registry.gauge('belay_disk_free_bytes', "Free space in the database's folder", () =>
    freeBytesBeside(deps.config.dbPath),
  )
  registry.gauge(
    'belay_login_running',
    'Password verifications running now',
    () => deps.loginGate.runningCount,
  )
  registry.gauge(
    'belay_login_queue_waiting',
    'Logins waiting for a password verification slot',
    () => deps.loginGate.waitingCount,
  )
  registry.gauge(
    'belay_snapshot_age_seconds',
    'Seconds since the newest snapshot in the backup folder; absent when there is none (or no schedule, or the folder cannot be read: /healthz says which)',
    () => {
      if (deps.snapshots === undefined) return null
      try {
        return lastSnapshotAge(deps.snapshots.folder, deps.clock.now())
      } catch {
        return null
      }
    },
  )
  registry.gauge('belay_process_resident_memory_bytes', 'Resident memory of the process', () =>
    process.memoryUsage.rss(),
  )
  registry.gauge('belay_uptime_seconds', 'Seconds since the process started', () => process.uptime())
  registry.gauge('belay_build_info', 'The running version, as a label; always 1', () => 1, {
    version: deps.version,
  })
}

/** GET /metrics: every metric in Prometheus's text format, for an organization admin's token. */
export const monitoringRoutes = (deps: Deps) => {
  registerGauges(deps)
  return new Elysia().use(authenticated(deps)).get(
    METRICS_PATH,
    async () =>
      new Response(await deps.monitoring.registry.render(), {
        headers: { 'content-type': PROMETHEUS_CONTENT_TYPE },
      }),
    {
      ...requires('admin'),
      ...docs({
        tag: 'Monitoring',
        summary:
          'Prometheus metrics (organization admin): requests and their durations by route, door ' +
          'decisions by outcome, webhook outbox, WAL size, free disk, login queue',
        description: whoMay(
          'admin',
          [
            [
              "Prometheus's text format; give Prometheus an admin's token, sent as",
              '`Authorization: Token <key>`. Each metric carries its own help line. `route` on the request',
              'metrics is the route as registered (`/api/customers/:customer_id/`), never the path, and',
              '`unmatched` for a path no route serves; `belay_door_decisions_total` counts the scans of',
              '`open-door-check-in` and `barcode-check-in` by outcome (`admitted`, `duplicate`,',
              '`check_in_alerts`, `no_entry_method`, `customer_not_found`, `invalid_location`).',
            ],
            [
              'Gauges are read at each scrape: the webhook outbox (0 when none waits), the WAL not yet',
              'checkpointed, free disk beside the database, logins running and queued (past four waiting a',
              "login is refused with 429), the newest snapshot's age (absent before the first, or with",
              'snapshots off), resident memory, uptime and `belay_build_info{version}`.',
            ],
          ]
            .map((paragraph) => paragraph.join(' '))
            .join('\n\n'),
        ),
        ok: {
          status: 200,
          schema: null,
          description: 'Prometheus text exposition format, version 0.0.4',
          text: t.String(),
        },
      }),
    },
  )
}

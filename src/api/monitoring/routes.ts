import { lastSnapshotAge } from '../../core/backup/snapshots.ts'
import { Elysia, t } from 'elysia'
import { getOutboxBacklog, type OutboxBacklog } from '../../core/webhooks/queries.ts'
import { freeBytesBeside, walSizeBytes } from '../../db/disk.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs } from '../../http/docs.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import type { SiteLocalStatus, SiteView } from '../../core/sites/site.ts'
import { countConflicts } from '../sites/queries.ts'
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
  if (deps.site) registerSiteGauges(deps, deps.site)
  registry.gauge('belay_process_resident_memory_bytes', 'Resident memory of the process', () =>
    process.memoryUsage.rss(),
  )
  registry.gauge('belay_uptime_seconds', 'Seconds since the process started', () => process.uptime())
  registry.gauge('belay_build_info', 'The running version, as a label; always 1', () => 1, {
    version: deps.version,
  })
}

/** A site's link to the hub, only on a box run with --hub: a box on its own has none of them. */
function registerSiteGauges(deps: Deps, site: SiteView) {
  const { registry } = deps.monitoring
  // The status gauges share one reading per scrape, as the outbox's do.
  let status: Promise<SiteLocalStatus> | undefined
  const readStatus = () =>
    (status ??= Promise.resolve()
      .then(() => site.status())
      .finally(() => (status = undefined)))

  registry.gauge(
    'belay_sites_hub_reachable',
    'Whether the link to the hub is up: 1, or 0 while this site is cut off',
    async () => ((await readStatus()).hubReachable ? 1 : 0),
  )
  registry.gauge(
    'belay_sites_unsent_changes',
    'Row changes recorded at this site that the hub has not acknowledged yet',
    async () => (await readStatus()).unsentRows,
  )
  registry.gauge(
    'belay_sites_oldest_unsent_seconds',
    'How long the oldest unsent change has waited; 0 when none waits',
    async () => (await readStatus()).oldestUnsentAgeSeconds ?? 0,
  )
  registry.gauge(
    'belay_sites_applied_stream_sequence',
    "How far along the organization's stream this site has applied",
    async () => (await readStatus()).appliedStreamSequence,
  )
  registry.gauge(
    'belay_sites_unapplied_changes',
    "The stream's changes this site has not applied yet; absent while the hub is unreachable",
    async () => {
      const last = await site.streamLastSequence()
      return last === null ? null : Math.max(0, last - (await readStatus()).appliedStreamSequence)
    },
  )
  registry.gauge(
    'belay_sites_conflicts',
    'Unique values two sites gave twice while apart, as recorded here (GET /api/sites/conflicts/)',
    () => countConflicts(deps.db),
  )
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
          "decisions by outcome, webhook outbox, WAL size, free disk, login queue, a site's link to the hub",
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
            [
              'On a box run with `--hub` only, its link to the other sites: `belay_sites_hub_reachable`',
              '(1 or 0), `belay_sites_unsent_changes` and `belay_sites_oldest_unsent_seconds` (what waits',
              'to reach the hub; 0 when nothing does), `belay_sites_applied_stream_sequence`,',
              '`belay_sites_unapplied_changes` (how far behind the stream it is; absent while the hub is',
              'unreachable) and `belay_sites_conflicts` (see `/api/sites/conflicts/`).',
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

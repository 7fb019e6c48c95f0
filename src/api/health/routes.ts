import { Elysia, t } from 'elysia'
import { sql } from 'kysely'
import { getOutboxBacklog } from '../../core/webhooks/queries.ts'
import { MAX_OUTBOX_AGE_SECONDS } from '../../domain/webhooks.ts'
import { freeBytesBeside, MIN_FREE_BYTES } from '../../db/disk.ts'
import { snapshotHealth } from '../../core/backup/schedule.ts'
import type { Deps } from '../../deps.ts'
import { syncRead } from '../../db/sync-transaction.ts'
import { durableWalOf } from '../../db/wal-sync.ts'
import { docs, named } from '../../http/docs.ts'
import { jsonResponse } from '../../http/error-handler.ts'

const healthFields = { database: t.String(), version: t.String() }
const checksSchema = t.Object({
  database_writable: t.Union([t.Literal('ok'), t.Literal('failing')]),
  disk: t.Union([t.Literal('ok'), t.Literal('failing'), t.Literal('not_applicable')]),
  disk_free_bytes: t.Union([t.Integer(), t.Null()]),
  disk_min_free_bytes: t.Integer(),
  outbox: t.Union([t.Literal('ok'), t.Literal('failing')]),
  outbox_pending: t.Integer(),
  outbox_oldest_age_seconds: t.Union([t.Integer(), t.Null()]),
  outbox_max_age_seconds: t.Integer(),
  snapshot: t.Union([t.Literal('ok'), t.Literal('failing'), t.Literal('not_applicable')]),
  snapshot_age_seconds: t.Union([t.Integer(), t.Null()]),
  snapshot_max_age_seconds: t.Union([t.Integer(), t.Null()]),
  hub: t.Union([t.Literal('ok'), t.Literal('failing'), t.Literal('not_applicable')]),
  hub_reachable: t.Union([t.Boolean(), t.Null()]),
  hub_unsent_changes: t.Union([t.Integer(), t.Null()]),
  hub_oldest_unsent_age_seconds: t.Union([t.Integer(), t.Null()]),
  hub_max_unsent_age_seconds: t.Union([t.Integer(), t.Null()]),
  hub_applying_stopped: t.Union([t.String(), t.Null()]),
})
type Checks = typeof checksSchema.static

/**
 * A write that leaves nothing behind: the write lock is taken and an UPDATE of no rows is run, then
 * rolled back. It runs under the connection's lock (syncRead), so it never lands inside the door's
 * group-commit transaction, and holds the write lock only for the microseconds it runs. It also
 * fails once an fdatasync of the WAL has failed: every write is refused from then on until a restart
 * (db/wal-sync.ts), though SQLite itself would still take this one.
 */
function probeWritable(deps: Deps): Promise<void> {
  return syncRead(deps, () => {
    const walFailure = durableWalOf(deps.sqlite)?.walSync.failure
    if (walFailure !== undefined) throw walFailure
    try {
      deps.sqlite.run('BEGIN IMMEDIATE')
      deps.sqlite.run('UPDATE webhooks SET id = id WHERE 0')
    } finally {
      if (deps.sqlite.inTransaction) deps.sqlite.run('ROLLBACK')
    }
  })
}

type HubChecks = Pick<
  Checks,
  | 'hub'
  | 'hub_reachable'
  | 'hub_unsent_changes'
  | 'hub_oldest_unsent_age_seconds'
  | 'hub_max_unsent_age_seconds'
  | 'hub_applying_stopped'
>

/**
 * A site's link: failing once a change has waited longer than the outbox's limit to reach the hub
 * (a cut-off box keeps working, but the others stop seeing its changes), or once applying stopped.
 * A cut with nothing written meanwhile is not failing: nothing is kept from the others.
 */
function hubCheck(deps: Deps, maxAge: number): HubChecks {
  if (!deps.site)
    return {
      hub: 'not_applicable',
      hub_reachable: null,
      hub_unsent_changes: null,
      hub_oldest_unsent_age_seconds: null,
      hub_max_unsent_age_seconds: null,
      hub_applying_stopped: null,
    }
  const status = deps.site.status()
  const age = status.oldestUnsentAgeSeconds
  return {
    hub: (age !== null && age > maxAge) || status.applyingStopped !== null ? 'failing' : 'ok',
    hub_reachable: status.hubReachable,
    hub_unsent_changes: status.unsentRows,
    hub_oldest_unsent_age_seconds: age,
    hub_max_unsent_age_seconds: maxAge,
    hub_applying_stopped: status.applyingStopped,
  }
}

async function runChecks(deps: Deps): Promise<Checks> {
  const limits = deps.healthLimits ?? {}
  const minFree = limits.minFreeBytes ?? MIN_FREE_BYTES
  const maxAge = limits.maxOutboxAgeSeconds ?? MAX_OUTBOX_AGE_SECONDS

  let writable: Checks['database_writable'] = 'ok'
  try {
    await probeWritable(deps)
  } catch (error) {
    deps.log.error('health check: database not writable', { error: String(error) })
    writable = 'failing'
  }

  let free: number | null = null
  let disk: Checks['disk'] = 'not_applicable'
  try {
    free = freeBytesBeside(deps.config.dbPath)
    if (free !== null) disk = free < minFree ? 'failing' : 'ok'
  } catch (error) {
    deps.log.error('health check: free space unknown', { error: String(error) })
    disk = 'failing'
  }

  const backlog = await getOutboxBacklog(deps.db, deps.clock.now())
  const oldestAge = backlog.oldestAgeSeconds

  const snapshot = snapshotHealth(deps.snapshots, deps.clock.now())
  if (snapshot.error) deps.log.error('health check: snapshot folder unreadable', { error: snapshot.error })

  return {
    database_writable: writable,
    disk,
    disk_free_bytes: free,
    disk_min_free_bytes: minFree,
    outbox: oldestAge !== null && oldestAge > maxAge ? 'failing' : 'ok',
    outbox_pending: backlog.pending,
    outbox_oldest_age_seconds: oldestAge,
    outbox_max_age_seconds: maxAge,
    snapshot: snapshot.state,
    snapshot_age_seconds: snapshot.ageSeconds,
    snapshot_max_age_seconds: snapshot.maxAgeSeconds,
    ...hubCheck(deps, maxAge),
  }
}

const failingOf = (checks: Checks) =>
  (['database_writable', 'disk', 'outbox', 'snapshot', 'hub'] as const).filter(
    (name) => checks[name] === 'failing',
  )

/**
 * Unauthenticated health for monitoring: 503 when the database cannot be read (the old body, as
 * nothing else can be checked), or when any check fails, named in `failing`.
 */
export const healthRoutes = (deps: Deps) =>
  new Elysia().get(
    '/healthz',
    async () => {
      try {
        await sql`SELECT 1`.execute(deps.db)
      } catch (error) {
        deps.log.error('health check failed', { error: String(error) })
        return jsonResponse(503, { status: 'unavailable', database: 'unreachable', version: deps.version })
      }
      const checks = await runChecks(deps)
      const failing = failingOf(checks)
      if (failing.length === 0)
        return { status: 'ok', database: 'ok', version: deps.version, checks, failing }
      deps.log.error('health check failing', { failing })
      return jsonResponse(503, {
        status: 'unavailable',
        database: 'ok',
        version: deps.version,
        checks,
        failing,
      })
    },
    {
      ...docs({
        tag: 'Health',
        summary:
          'Is the appliance up: its database readable and writable, disk space, webhook outbox, snapshots, hub',
        description: [
          [
            'No token needed. 200 when every check passes; any failing check makes it 503 with `failing`',
            'naming it, so a monitor needs only the status (`curl -fsS .../healthz` fails on anything but',
            '200). A database that cannot be read at all is 503',
            '`{"status": "unavailable", "database": "unreachable", …}` without `checks`.',
          ],
          [
            'The checks: `database_writable`, the write lock taken and an empty UPDATE rolled back, between',
            "the door's commits; `disk`, at least `disk_min_free_bytes` free in the database's folder",
            '(`--health-min-free-mb`); `outbox`, the oldest undelivered webhook event at most',
            '`outbox_max_age_seconds` old (`--health-max-outbox-age-minutes`); `snapshot`, the newest',
            'snapshot of any kind at most `snapshot_max_age_seconds` old, two backup intervals (one missed',
            'snapshot is a hiccup, two in a row need someone). With no snapshot yet it fails once `serve`',
            'has run two intervals without one, at once when the backup folder cannot be read, and it is',
            '`not_applicable` with snapshots off.',
          ],
          [
            'On a box run with `--hub`, `hub`: the oldest change not yet acknowledged by the hub at most',
            "`hub_max_unsent_age_seconds` old (the outbox's limit), and applying the others' changes not",
            'stopped (`hub_applying_stopped` says why it did: a change from a newer version, so upgrade',
            'this box). A cut link alone is not failing (`hub_reachable` says whether it is up): the box',
            'keeps working, and fails once a change has waited too long. `not_applicable` without a hub.',
          ],
        ]
          .map((paragraph) => paragraph.join(' '))
          .join('\n\n'),
        public: true,
        ok: {
          status: 200,
          schema: named(
            'Health',
            t.Object({
              status: t.Literal('ok'),
              ...healthFields,
              checks: checksSchema,
              failing: t.Array(t.String()),
            }),
          ),
        },
        errorBodies: {
          503: {
            description:
              'The database cannot be read (no `checks`), or a check fails: `failing` names it ' +
              '(`database_writable`, `disk` below `disk_min_free_bytes`, `outbox` older than `outbox_max_age_seconds`, ' +
              '`snapshot`: the newest snapshot older than `snapshot_max_age_seconds`, two backup intervals; ' +
              '`hub`: a change unsent for longer than `hub_max_unsent_age_seconds`, or applying stopped)',
            json: named(
              'Unhealthy',
              t.Object({
                status: t.Literal('unavailable'),
                ...healthFields,
                checks: t.Optional(checksSchema),
                failing: t.Optional(t.Array(t.String())),
              }),
            ),
          },
        },
      }),
    },
  )

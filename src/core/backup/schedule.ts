import type { Clock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'
import { lastSnapshotAge, listSnapshots, pruneSnapshots, takeSnapshot } from './snapshots.ts'

/** Where serve's snapshots go and how often; `intervalSeconds` null means none are taken. */
export interface SnapshotPlace {
  folder: string
  intervalSeconds: number | null
  /** When serve started: with no snapshot yet, the age is counted from here. */
  since: Date
}

export interface SnapshotSchedule {
  /** Stops the schedule, waiting for a snapshot being taken to finish. */
  stop(): Promise<void>
}

/**
 * A snapshot that is due when serve starts waits this long (or one interval, when shorter): the
 * first moments after a start belong to the door controllers and desks reconnecting.
 */
export const FIRST_SNAPSHOT_DELAY_SECONDS = 60

/** One missed snapshot is a hiccup; the second in a row is a problem someone should look at. */
export const MAX_AGE_INTERVALS = 2

export interface SnapshotHealth {
  state: 'ok' | 'failing' | 'not_applicable'
  ageSeconds: number | null
  maxAgeSeconds: number | null
  /** Why the snapshot folder could not be read. */
  error?: string
}

/**
 * Whether serve's snapshots keep coming: failing once the newest is older than MAX_AGE_INTERVALS
 * intervals (or, with none yet, once serve has run that long without taking one), or at once when
 * their folder cannot be read.
 */
export function snapshotHealth(place: SnapshotPlace | undefined, now: Date): SnapshotHealth {
  if (!place || place.intervalSeconds === null)
    return { state: 'not_applicable', ageSeconds: null, maxAgeSeconds: null }
  const maxAgeSeconds = place.intervalSeconds * MAX_AGE_INTERVALS
  let ageSeconds: number | null
  try {
    ageSeconds = lastSnapshotAge(place.folder, now)
  } catch (error) {
    // The folder cannot be read (its disk gone, its permissions): no snapshot can be counted on.
    return { state: 'failing', ageSeconds: null, maxAgeSeconds, error: String(error) }
  }
  const waited = ageSeconds ?? (now.getTime() - place.since.getTime()) / 1000
  return { state: waited > maxAgeSeconds ? 'failing' : 'ok', ageSeconds, maxAgeSeconds }
}

/**
 * Serve's scheduled snapshots: one every `intervalSeconds` after the newest scheduled one (a minute
 * after the start when that is already older), each followed by pruning to `keep`. A failed
 * snapshot is logged and tried again an interval later; /healthz says so once snapshots are overdue.
 */
export function startSnapshotSchedule(
  dbPath: string,
  place: SnapshotPlace,
  keep: number,
  log: Logger,
  clock: Clock,
): SnapshotSchedule {
  const interval = place.intervalSeconds
  if (interval === null || dbPath === ':memory:') return { stop: async () => {} }
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let stopped = false

  const scheduleAfter = (ms: number) => {
    if (stopped) return
    timer = setTimeout(() => (running = snapshot().finally(() => (running = undefined))), Math.max(0, ms))
    // The server's socket keeps the process alive; a pending snapshot must not on its own.
    timer.unref()
  }

  const snapshot = async () => {
    const at = clock.now()
    const started = performance.now()
    try {
      const taken = await takeSnapshot({ dbPath, target: { folder: place.folder }, kind: 'scheduled', at })
      const pruned = pruneSnapshots(place.folder, keep)
      log.info('snapshot taken', {
        path: taken.path,
        size_bytes: taken.sizeBytes,
        seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
        ...(pruned.length > 0 ? { pruned } : {}),
      })
    } catch (error) {
      log.error('snapshot failed', { folder: place.folder, error: String(error) })
    }
    scheduleAfter(interval * 1000)
  }

  // An unusable folder (a disk not mounted, a file in the way) must not keep the door shut: serve
  // starts, the snapshot fails and is logged, and /healthz says so once snapshots are overdue.
  const now = clock.now().getTime()
  let dueAt = 0
  try {
    const newest = listSnapshots(place.folder).find((s) => s.kind === 'scheduled')
    if (newest) dueAt = newest.createdAt.getTime() + interval * 1000
  } catch {
    // the first snapshot reports it
  }
  scheduleAfter(Math.max(dueAt, now + Math.min(interval, FIRST_SNAPSHOT_DELAY_SECONDS) * 1000) - now)

  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

import { resolve } from 'node:path'
import type { Logger } from '../lib/log.ts'
import { checkpointWorkerUrl } from '../worker-urls.ts'
import type { Connection } from './connection.ts'
import { storageFailureOf } from './storage-failure.ts'

/**
 * WAL checkpoints for `belay serve`, kept out of the door's commits.
 *
 * SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1000 pages, on the
 * committing thread: it copies the WAL into the database file and syncs that file, a write and sync of many pages,
 * during which the server's one JavaScript thread answers no door. So while the
 * server runs, the serving connection's automatic checkpoint is off and:
 *
 * - a worker (checkpoint-worker.ts) runs a PASSIVE checkpoint every STEP_MS from its own connection,
 *   copying what came in since its last step beside the server, never blocking the writer;
 * - the WAL must also start over from its beginning now and then, or it grows without bound (and a
 *   growing file costs more to sync than one overwritten in place). SQLite does that at the first
 *   write after a checkpoint has copied every frame, which a rush of commits never leaves time for.
 *   So once the WAL is past RESTART_FRAMES and the worker is within CATCH_UP_FRAMES of its end, the
 *   serving thread runs one PASSIVE checkpoint itself, between two transactions (under Kysely's lock,
 *   which group commit also takes): it copies only that short remainder, and its next write starts
 *   the WAL over. Between rushes the worker catches up on its own and the same happens by itself.
 *
 * Durability is untouched: a commit is on disk once its WAL frames are; checkpoints only copy them.
 * If the worker fails, SQLite's automatic checkpoint comes back on and the server goes on without it.
 * A checkpoint the disk would not take (full, or failing) is not such a failure: the database file
 * cannot grow for now, so the step is simply tried again, and the WAL is copied once space is freed.
 * CLI commands, tests and ':memory:' keep SQLite's automatic checkpoint.
 */

export type CheckpointRequest = { type: 'start'; path: string; stepMs: number } | { type: 'stop' }

export type CheckpointReply =
  | { type: 'started' }
  | { type: 'stopped' }
  | { type: 'error'; message: string; code?: string }
  /** The WAL after a step: `log` frames, of which `checkpointed` are in the database file. */
  | { type: 'state'; log: number; checkpointed: number }

export interface Checkpointer {
  /** Stops the worker and turns the automatic checkpoint back on, as it was before the start. */
  stop(): Promise<void>
}

export interface CheckpointerOptions {
  /** How often the worker checkpoints; default STEP_MS. */
  stepMs?: number
  /** How long the WAL may grow before the serving thread finishes a checkpoint; default RESTART_FRAMES. */
  restartFrames?: number
  /** Told the WAL's frames and how many of them are copied, after each step that changed them. */
  onState?: (walFrames: number, copied: number) => void
}

export const STEP_MS = 50
/** About 8 MB of WAL with 4 KiB pages: some seconds of the door's peak. */
export const RESTART_FRAMES = 2_000
/** What the serving thread copies at most when it finishes a checkpoint (about a step's worth). */
export const CATCH_UP_FRAMES = 400
const REPLY_TIMEOUT_MS = 5_000

const noCheckpointer: Checkpointer = { stop: async () => {} }

export async function startCheckpointer(
  path: string,
  connection: Pick<Connection, 'db' | 'sqlite'>,
  log: Logger,
  options: CheckpointerOptions = {},
): Promise<Checkpointer> {
  if (path === ':memory:') return noCheckpointer
  const { db, sqlite } = connection
  const restartFrames = options.restartFrames ?? RESTART_FRAMES
  const worker = new Worker(checkpointWorkerUrl)
  // The server's listening socket keeps the process alive; this worker must not on its own.
  worker.unref()

  let running = false
  let catchingUp = false
  const waiting = new Map<'started' | 'stopped', (ok: boolean) => void>()
  const reply = (type: 'started' | 'stopped') =>
    new Promise<boolean>((resolve) => {
      waiting.set(type, resolve)
      setTimeout(() => resolve(false), REPLY_TIMEOUT_MS).unref()
    })

  const automatic = (sqlite.query('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number })
    .wal_autocheckpoint
  const restoreAutomatic = () => {
    try {
      sqlite.run(`PRAGMA wal_autocheckpoint = ${automatic}`)
    } catch {
      // The connection is closed already: nothing is left to checkpoint from it.
    }
  }

  /** Back to SQLite's own checkpoints, inside commits: slower for the door, but the WAL stays bounded. */
  const fallBack = (why: string, error?: string) => {
    if (!running) return
    running = false
    worker.terminate()
    restoreAutomatic()
    log.error(`wal checkpointer: ${why}; automatic checkpoints are back on`, error ? { error } : {})
  }

  /** Logged once per run of failures: the worker tries every step, and would say so every step. */
  let storageFailing = false
  const failed = (error: { message: string; code?: string }) => {
    if (storageFailureOf(error) === undefined) return fallBack('a checkpoint failed', error.message)
    if (!storageFailing)
      log.error('wal checkpointer: the disk would not take a checkpoint; trying again', {
        error: error.message,
      })
    storageFailing = true
  }

  const catchUp = () => {
    catchingUp = true
    db.connection()
      .execute(async () => void sqlite.query('PRAGMA wal_checkpoint(PASSIVE)').get())
      .catch((error) => failed({ message: String(error), code: (error as { code?: string }).code }))
      .finally(() => (catchingUp = false))
  }

  const onState = (walFrames: number, copied: number) => {
    storageFailing = false
    options.onState?.(walFrames, copied)
    const finishing = walFrames >= restartFrames && walFrames - copied <= CATCH_UP_FRAMES
    if (running && finishing && !catchingUp) catchUp()
  }

  worker.addEventListener('message', ({ data }: MessageEvent<CheckpointReply>) => {
    switch (data.type) {
      case 'started':
      case 'stopped':
        return waiting.get(data.type)?.(true)
      case 'state':
        return onState(data.log, data.checkpointed)
      case 'error':
        if (running) return failed(data)
        log.error('wal checkpointer: could not open the database', { error: data.message })
        return waiting.get('started')?.(false)
    }
  })
  worker.addEventListener('error', (event) => fallBack('its thread stopped', event.message))

  const started = reply('started')
  worker.postMessage({
    type: 'start',
    path: resolve(path),
    stepMs: options.stepMs ?? STEP_MS,
  } satisfies CheckpointRequest)
  if (!(await started)) {
    worker.terminate()
    log.warn('wal checkpointer did not start; SQLite checkpoints inside commits as before')
    return noCheckpointer
  }
  running = true
  sqlite.run('PRAGMA wal_autocheckpoint = 0')

  return {
    async stop() {
      if (!running) return
      running = false
      const stopped = reply('stopped')
      // Keep the process alive until it answers: at shutdown nothing else may be left to.
      worker.ref()
      worker.postMessage({ type: 'stop' } satisfies CheckpointRequest)
      await stopped
      worker.terminate()
      restoreAutomatic()
    },
  }
}

import type { Database as BunDatabase } from 'bun:sqlite'
import { resolve } from 'node:path'
import type { Logger } from '../lib/log.ts'
import { checkpointWorkerUrl } from '../worker-urls.ts'

/**
 * Background WAL checkpoints for `belay serve`. SQLite's automatic checkpoint runs inside the commit
 * that crosses 1000 WAL pages, on the committing thread; for the server that is its one JavaScript
 * thread, and a door scan waited up to 75 ms behind it. So the serving connection's automatic
 * checkpoint is turned off and a worker (checkpoint-worker.ts) checkpoints from its own connection
 * to the same file. Durability does not change: a commit is durable once its WAL frames are synced
 * (synchronous=FULL on every connection); a checkpoint only copies them into the database file.
 * CLI commands and tests (':memory:') keep SQLite's automatic checkpoint.
 */

export type CheckpointRequest = { type: 'start'; path: string; intervalMs: number } | { type: 'stop' }

export type CheckpointReply =
  | { type: 'started' }
  | { type: 'error'; message: string }
  | { type: 'stopped'; busy: number; log: number; checkpointed: number }

export interface Checkpointer {
  /** Stops the ticks, runs a last TRUNCATE checkpoint and turns the automatic checkpoint back on. */
  stop(): Promise<void>
}

const STOP_TIMEOUT_MS = 5_000

export interface CheckpointerOptions {
  /** How often the worker checkpoints (PASSIVE); default 200 ms. */
  intervalMs?: number
}

/**
 * Starts checkpointing the database at `path`, whose serving connection is `sqlite`. If the worker
 * cannot start, or dies later, the connection's automatic checkpoint is turned back on and the
 * server goes on as before (logged): a WAL that is never checkpointed would grow without bound.
 */
export async function startCheckpointer(
  path: string,
  sqlite: BunDatabase,
  log: Logger,
  options: CheckpointerOptions = {},
): Promise<Checkpointer> {
  if (path === ':memory:') return { stop: async () => {} }
  const automatic = (sqlite.query('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number })
    .wal_autocheckpoint
  const restoreAutomatic = () => {
    try {
      sqlite.run(`PRAGMA wal_autocheckpoint = ${automatic}`)
    } catch {
      // the connection is already closed: nothing left to checkpoint from it
    }
  }

  const worker = new Worker(checkpointWorkerUrl)
  // The server's listening socket keeps the process alive; this worker must not on its own.
  worker.unref()
  let stopped: ((reply: CheckpointReply & { type: 'stopped' }) => void) | undefined
  let started: ((ok: boolean) => void) | undefined
  const startedOk = new Promise<boolean>((resolve) => {
    started = resolve
    setTimeout(() => resolve(false), STOP_TIMEOUT_MS).unref()
  })

  worker.addEventListener('message', ({ data }: MessageEvent<CheckpointReply>) => {
    if (data.type === 'started') started?.(true)
    else if (data.type === 'stopped') stopped?.(data)
    else {
      log.error('wal checkpoint failed', { error: data.message })
      started?.(false)
    }
  })
  worker.addEventListener('error', (event) => {
    log.error('wal checkpointer stopped; automatic checkpoints are back on', { error: event.message })
    restoreAutomatic()
    started?.(false)
  })

  worker.postMessage({
    type: 'start',
    path: resolve(path),
    intervalMs: options.intervalMs ?? 200,
  } satisfies CheckpointRequest)
  if (!(await startedOk)) {
    worker.terminate()
    restoreAutomatic()
    log.warn('wal checkpointer did not start; SQLite checkpoints inside commits as before')
    return { stop: async () => {} }
  }
  started = undefined
  sqlite.run('PRAGMA wal_autocheckpoint = 0')

  return {
    async stop() {
      const done = new Promise<CheckpointReply | 'timeout'>((resolve) => {
        stopped = resolve
        setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS).unref()
      })
      worker.ref()
      worker.postMessage({ type: 'stop' } satisfies CheckpointRequest)
      const result = await done
      worker.terminate()
      restoreAutomatic()
      if (result === 'timeout' || (result.type === 'stopped' && result.busy !== 0))
        log.warn('wal checkpoint at shutdown did not finish', { result })
    },
  }
}

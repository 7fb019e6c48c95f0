/**
 * The WAL checkpointer's thread (see checkpointer.ts). It exists because SQLite's automatic
 * checkpoint runs inside whichever commit crosses 1000 WAL pages, on the thread that committed: up
 * to 75 ms during which the server's one JavaScript thread answers no door. Here a connection of
 * its own copies the WAL back into the database beside that thread:
 *
 * - every interval, PASSIVE: copies what no reader still needs, never waiting for nor blocking the
 *   writer. Once a pass ends with everything copied, the writer's next commit starts the WAL over
 *   from its beginning; a WAL left to grow makes every page read on the server's thread slower.
 *   During a peak a pass seldom ends so (commits land while it copies), so up to EXTRA_PASSES more
 *   follow at once: each copies only what came in during the one before, is shorter, and soon one
 *   ends between two commits.
 * - after an interval without commits (idle), TRUNCATE, which also empties the file. With no busy
 *   handler it takes the write lock only if it is free that instant, and gives up on a reader.
 * - past LIMIT_FRAMES (a peak that never left such a gap), RESTART, waiting at most BUSY_LIMIT_MS
 *   for the write lock and then for readers: the one case that holds the writer up, for that wait
 *   and the copying of what the pass just before left, so the WAL cannot grow without bound.
 * - on `stop`, a last TRUNCATE that may wait for the lock (the server has stopped by then).
 *
 * Built into the executable as its own entrypoint (build/build.ts): keep its imports to bun:sqlite.
 */
import { Database } from 'bun:sqlite'
import type { CheckpointReply, CheckpointRequest } from './checkpointer.ts'

declare const self: Worker

/** A pass that copies anything costs two fsyncs, on the disk the door's commits sync to. */
const EXTRA_PASSES = 8
/** About 200 MB of WAL with 4 KiB pages. */
const LIMIT_FRAMES = 50_000
const BUSY_LIMIT_MS = 10

interface Result {
  busy: number
  log: number
  checkpointed: number
}

let db: Database | undefined
let timer: ReturnType<typeof setInterval> | undefined
let lastVersion = -1

const reply = (message: CheckpointReply) => self.postMessage(message)

function checkpoint(mode: 'PASSIVE' | 'RESTART' | 'TRUNCATE', busyTimeoutMs = 0): Result {
  db!.run(`PRAGMA busy_timeout = ${busyTimeoutMs}`)
  return db!.query(`PRAGMA wal_checkpoint(${mode})`).get() as Result
}

function pass(): void {
  // data_version changes when another connection has committed since this one last asked.
  const version = (db!.query('PRAGMA data_version').get() as { data_version: number }).data_version
  const idle = version === lastVersion
  lastVersion = version
  let passive = checkpoint('PASSIVE')
  if (passive.log <= 0) return
  if (idle) return void checkpoint('TRUNCATE')
  // A pass reports the WAL as it found it on starting: all is copied once a pass finds nothing new.
  let before = -1
  for (let i = 0; i < EXTRA_PASSES && (passive.log !== before || passive.checkpointed < passive.log); i++) {
    before = passive.log
    passive = checkpoint('PASSIVE')
  }
  if (passive.log > LIMIT_FRAMES) checkpoint('RESTART', BUSY_LIMIT_MS)
}

function start(path: string, intervalMs: number): void {
  db = new Database(path, { strict: true })
  db.run('PRAGMA synchronous = FULL')
  timer = setInterval(() => {
    try {
      pass()
    } catch (error) {
      reply({ type: 'error', message: error instanceof Error ? error.message : String(error) })
    }
  }, intervalMs)
}

function stop(): void {
  clearInterval(timer)
  let result: Result | undefined
  try {
    result = db ? checkpoint('TRUNCATE', 2_000) : undefined
    db?.close()
  } catch (error) {
    reply({ type: 'error', message: error instanceof Error ? error.message : String(error) })
  }
  reply({ type: 'stopped', ...(result ?? { busy: 1, log: -1, checkpointed: -1 }) })
}

self.onmessage = ({ data }: MessageEvent<CheckpointRequest>) => {
  if (data.type === 'start') {
    try {
      start(data.path, data.intervalMs)
      reply({ type: 'started' })
    } catch (error) {
      reply({ type: 'error', message: error instanceof Error ? error.message : String(error) })
    }
  } else stop()
}

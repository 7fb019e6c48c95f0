/**
 * The WAL checkpointer's thread (see checkpointer.ts): a connection of its own to the database file
 * that, every STEP_MS while the WAL has frames it has not copied, runs a PASSIVE checkpoint. PASSIVE
 * copies what no reader still needs into the database file and syncs it, without waiting for or
 * blocking the writer, so each step copies only what came in since the last one (a few hundred
 * frames during a rush) and its syncs are small. It reports the WAL's state after each step that
 * found something new; the serving thread decides from that when to finish the job (checkpointer.ts).
 *
 * Built into the executable as its own entrypoint (build/build.ts): keep its imports to bun:sqlite.
 */
import { Database } from 'bun:sqlite'
import type { CheckpointReply, CheckpointRequest } from './checkpointer.ts'

declare const self: Worker

let db: Database | undefined
let timer: ReturnType<typeof setTimeout> | undefined
let stopping = false
let last = ''
let lastDataVersion = -1

const reply = (message: CheckpointReply) => self.postMessage(message)
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))
/** SQLite's result code (SQLITE_FULL, ...), for the serving thread to tell a full disk from the rest. */
const codeOf = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

function step(stepMs: number): void {
  try {
    // Changes when another connection has committed since this one last asked: the WAL may have
    // started over and come back to the very frame counts it had, which are then news all the same.
    const { data_version: dataVersion } = db!.query('PRAGMA data_version').get() as { data_version: number }
    // log: frames in the WAL; checkpointed: how many of them are in the database file now.
    const { busy, log, checkpointed } = db!.query('PRAGMA wal_checkpoint(PASSIVE)').get() as {
      busy: number
      log: number
      checkpointed: number
    }
    // busy: another checkpoint (the serving thread's) was running. Said only when something was
    // committed or copied since the last step.
    const state = `${log}/${checkpointed}`
    const news = state !== last || dataVersion !== lastDataVersion
    if (busy === 0 && log > 0 && news) reply({ type: 'state', log, checkpointed })
    if (busy === 0) {
      last = state
      lastDataVersion = dataVersion
    }
  } catch (error) {
    reply({ type: 'error', message: describe(error), code: codeOf(error) })
  }
  if (!stopping) timer = setTimeout(() => step(stepMs), stepMs)
}

self.onmessage = ({ data }: MessageEvent<CheckpointRequest>) => {
  if (data.type === 'start') {
    try {
      db = new Database(data.path, { strict: true })
      // A checkpoint syncs the WAL before copying and the database file after, at this level.
      db.run('PRAGMA synchronous = FULL')
      db.run('PRAGMA busy_timeout = 0')
      reply({ type: 'started' })
      step(data.stepMs)
    } catch (error) {
      reply({ type: 'error', message: describe(error) })
    }
  } else {
    stopping = true
    clearTimeout(timer)
    try {
      db?.close()
    } catch (error) {
      reply({ type: 'error', message: describe(error) })
    }
    reply({ type: 'stopped' })
  }
}

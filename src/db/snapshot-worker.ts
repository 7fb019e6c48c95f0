/**
 * The snapshot's thread (see snapshot.ts): `VACUUM INTO` copies the whole database in one call that
 * runs to its end on the thread that makes it, seconds on a large gym's file. Here that time is
 * spent beside the server's JavaScript thread, where the door is answered, instead of on it. It
 * opens its own connection to the file, copies it, syncs and checks the copy, and says how that went.
 *
 * Built into the executable as its own entrypoint (build/build.ts): keep its imports to bun:sqlite
 * and node's built-ins.
 */
import { Database } from 'bun:sqlite'
import { setPriority } from 'node:os'
import { checkCopyFile, syncPath } from './snapshot-check.ts'
import type { SnapshotReply, SnapshotRequest } from './snapshot.ts'

declare const self: Worker

/**
 * The copy is work that can wait; the door cannot. On Linux a priority set for "this process" from a
 * thread applies to that thread alone, so this lowers the copy's priority and nothing else: on a
 * busy box the door's thread takes the CPU first and the copy takes longer.
 */
function yieldToTheDoor(): void {
  try {
    setPriority(LOWEST_PRIORITY)
  } catch {
    // Not allowed here: the copy runs at the server's priority.
  }
}
const LOWEST_PRIORITY = 19

self.onmessage = ({ data }: MessageEvent<SnapshotRequest>) => {
  let db: Database | undefined
  yieldToTheDoor()
  try {
    db = new Database(data.path, { strict: true })
    // A writer's commit holds the file for moments; the copy waits for it rather than fail.
    db.run('PRAGMA busy_timeout = 5000')
    // One read transaction from start to end: the copy is the database as of its first page.
    db.run('VACUUM INTO ?', [data.target])
    db.close()
    db = undefined
    // Both take long on a large file (an fsync of all of it, a read of every page): here, too.
    syncPath(data.target)
    const check = checkCopyFile(data.target, data.knownMigrations)
    self.postMessage({ type: 'copied', check } satisfies SnapshotReply)
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string }
    self.postMessage({ type: 'failed', message: message ?? String(error), code } satisfies SnapshotReply)
  } finally {
    db?.close()
  }
}

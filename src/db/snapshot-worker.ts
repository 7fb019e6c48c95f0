/**
 * The snapshot's thread (see snapshot.ts): `VACUUM INTO` copies the whole database in one call that
 * runs to its end on the thread that makes it, seconds on a large gym's file. Here that time is
 * spent beside the server's JavaScript thread, where the door is answered, instead of on it. It
 * opens its own connection to the file, copies it, closes it and says how that went.
 *
 * Built into the executable as its own entrypoint (build/build.ts): keep its imports to bun:sqlite.
 */
import { Database } from 'bun:sqlite'
import type { SnapshotReply, SnapshotRequest } from './snapshot.ts'

declare const self: Worker

self.onmessage = ({ data }: MessageEvent<SnapshotRequest>) => {
  let db: Database | undefined
  try {
    db = new Database(data.path, { strict: true })
    // A writer's commit holds the file for moments; the copy waits for it rather than fail.
    db.run('PRAGMA busy_timeout = 5000')
    // One read transaction from start to end: the copy is the database as of its first page.
    db.run('VACUUM INTO ?', [data.target])
    self.postMessage({ type: 'copied' } satisfies SnapshotReply)
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string }
    self.postMessage({ type: 'failed', message: message ?? String(error), code } satisfies SnapshotReply)
  } finally {
    db?.close()
  }
}

import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startCheckpointer } from '../../src/db/checkpointer.ts'
import { openDatabase, type Connection } from '../../src/db/connection.ts'
import type { Logger } from '../../src/lib/log.ts'

/*
 * The background WAL checkpointer (src/db/checkpointer.ts): the serving connection's automatic
 * checkpoint is off while it runs, the WAL stays small under a stream of commits and is emptied when
 * writes stop, and every acknowledged commit survives, also a SIGKILL in the middle of the writes.
 * No timings are asserted: sizes, counts, and waits that end when the state is reached.
 */

const dir = mkdtempSync(join(tmpdir(), 'belay-checkpointer-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const newPath = () => join(dir, `db-${++files}.sqlite3`)

const walSize = (path: string) => {
  try {
    return statSync(`${path}-wal`).size
  } catch {
    return 0
  }
}

const pragma = (sqlite: Database, name: string) =>
  Object.values(sqlite.query(`PRAGMA ${name}`).get() as object)[0] as number

/** Records warnings and errors; the checkpointer should log none in these tests. */
function recordingLogger() {
  const problems: string[] = []
  const log: Logger = {
    info() {},
    warn: (msg) => void problems.push(msg),
    error: (msg, fields) => void problems.push(`${msg} ${JSON.stringify(fields)}`),
  }
  return { log, problems }
}

function openWithTable(path: string): Connection {
  const connection = openDatabase(path)
  connection.sqlite.run('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
  return connection
}

const ROWS = 1_000
const BATCH = 50
const BODY = 'x'.repeat(1500)

/** ROWS commits of one row each, with a pause after each BATCH; returns the largest WAL seen. */
async function writeRows(connection: Connection, path: string): Promise<number> {
  const insert = connection.sqlite.prepare('INSERT INTO rows (body) VALUES (?)')
  let largest = 0
  for (let i = 1; i <= ROWS; i++) {
    insert.run(BODY)
    if (i % BATCH === 0) {
      largest = Math.max(largest, walSize(path))
      await Bun.sleep(20)
    }
  }
  return largest
}

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`)
    await Bun.sleep(5)
  }
}

describe('the WAL checkpointer', () => {
  test('turns the serving connection automatic checkpoint off while it runs, and back on at stop', async () => {
    const path = newPath()
    const connection = openWithTable(path)
    expect(pragma(connection.sqlite, 'wal_autocheckpoint')).toBe(1000)
    const checkpointer = await startCheckpointer(path, connection.sqlite, recordingLogger().log)
    expect(pragma(connection.sqlite, 'wal_autocheckpoint')).toBe(0)
    expect(pragma(connection.sqlite, 'synchronous')).toBe(2) // FULL: durability unchanged
    await checkpointer.stop()
    expect(pragma(connection.sqlite, 'wal_autocheckpoint')).toBe(1000)
    await connection.close()
  })

  test('does nothing for :memory: (tests keep the automatic checkpoint)', async () => {
    const connection = openDatabase(':memory:')
    const checkpointer = await startCheckpointer(':memory:', connection.sqlite, recordingLogger().log)
    expect(pragma(connection.sqlite, 'wal_autocheckpoint')).toBe(1000)
    await checkpointer.stop()
    await connection.close()
  })

  test('a checkpointer that cannot start leaves the automatic checkpoint on, and says so', async () => {
    const path = newPath()
    const connection = openWithTable(path)
    const { log, problems } = recordingLogger()
    // Its own connection cannot open this path (no such directory).
    const checkpointer = await startCheckpointer(join(dir, 'missing', 'db.sqlite3'), connection.sqlite, log)
    expect(pragma(connection.sqlite, 'wal_autocheckpoint')).toBe(1000)
    expect(problems).toHaveLength(2)
    expect(problems[1]).toBe('wal checkpointer did not start; SQLite checkpoints inside commits as before')
    await checkpointer.stop()
    await connection.close()
  })

  test('keeps the WAL small under commits, empties it when they stop, and loses nothing', async () => {
    // Without checkpoints the WAL holds every commit: the size to stay well below.
    const uncheckpointedPath = newPath()
    const uncheckpointed = openWithTable(uncheckpointedPath)
    uncheckpointed.sqlite.run('PRAGMA wal_autocheckpoint = 0')
    const unbounded = await writeRows(uncheckpointed, uncheckpointedPath)
    uncheckpointed.sqlite.close()

    const path = newPath()
    const connection = openWithTable(path)
    const { log, problems } = recordingLogger()
    const checkpointer = await startCheckpointer(path, connection.sqlite, log, { intervalMs: 5 })
    const largest = await writeRows(connection, path)
    expect(largest).toBeLessThan(unbounded / 3)
    // No commits for a tick: the TRUNCATE checkpoint empties the file.
    await until(() => walSize(path) === 0, 'the WAL to be truncated when idle')

    // Everything is in the database file itself, readable with the WAL gone.
    const other = new Database(path, { readonly: true })
    expect(other.query('SELECT COUNT(*) AS n FROM rows').get()).toEqual({ n: ROWS })
    expect(other.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    other.close()
    await checkpointer.stop()
    await connection.close()
    expect(problems).toEqual([])
  }, 30_000)

  test('stop() runs a last checkpoint, so the WAL is empty when the server is down', async () => {
    const path = newPath()
    const connection = openWithTable(path)
    const { log, problems } = recordingLogger()
    // No tick runs in this test: only the last checkpoint can empty the WAL.
    const checkpointer = await startCheckpointer(path, connection.sqlite, log, { intervalMs: 600_000 })
    const insert = connection.sqlite.prepare('INSERT INTO rows (body) VALUES (?)')
    for (let i = 0; i < 300; i++) insert.run(BODY)
    expect(walSize(path)).toBeGreaterThan(300 * 4096)
    await checkpointer.stop()
    expect(walSize(path)).toBe(0)
    expect(problems).toEqual([])
    await connection.close()
  })

  test('every commit acknowledged before a SIGKILL is in the file after it', async () => {
    const path = newPath()
    const child = Bun.spawn(
      [process.execPath, 'run', join(import.meta.dir, '../helpers/wal-writer.ts'), path],
      { stdout: 'pipe', stderr: 'pipe' },
    )
    const acked: number[] = []
    let pending = ''
    const decoder = new TextDecoder()
    try {
      for await (const chunk of child.stdout) {
        pending += decoder.decode(chunk, { stream: true })
        const lines = pending.split('\n')
        pending = lines.pop()!
        for (const line of lines) acked.push(Number(line))
        // Past a few WAL restarts, so the kill can land in the middle of a checkpoint.
        if (acked.length >= 1_500) break
      }
    } finally {
      child.kill('SIGKILL')
      await child.exited
    }
    expect(acked.length).toBeGreaterThanOrEqual(1_500)

    const file = new Database(path)
    expect(file.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    const stored = new Set((file.query('SELECT id FROM acked').all() as { id: number }[]).map((r) => r.id))
    expect(acked.filter((id) => !stored.has(id))).toEqual([])
    file.close()
  }, 30_000)
})

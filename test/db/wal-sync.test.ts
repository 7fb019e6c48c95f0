import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WalSync } from '../../src/db/wal-sync.ts'

/*
 * WalSync (src/db/wal-sync.ts): group commit answers a batch once an fdatasync of the WAL that began
 * after its COMMIT has returned. Here the fdatasync is the test's own, finished by hand, to pin
 * exactly which calls each one serves.
 */

let dir: string
let walPath: string
/** fdatasyncs started and not yet finished, oldest first. */
let pending: ((error: Error | null) => void)[]
let started: number
let walSync: WalSync

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'belay-wal-sync-'))
  walPath = join(dir, 'db.sqlite3-wal')
  writeFileSync(walPath, 'frames')
  pending = []
  started = 0
  walSync = new WalSync(walPath, (_fd, done) => {
    started++
    pending.push(done)
  })
})

afterEach(async () => {
  for (const done of pending.splice(0)) done(null)
  await walSync.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Lets promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
const finishOldest = async (error: Error | null = null) => {
  pending.shift()!(error)
  await settle()
}
const track = (promise: Promise<void>) => {
  const state = { done: false, error: undefined as unknown }
  promise.then(
    () => (state.done = true),
    (error) => (state.error = error),
  )
  return state
}

describe('WalSync', () => {
  test('a call is served by an fdatasync that began after it, not by one already running', async () => {
    const first = track(walSync.sync())
    await settle()
    expect(started).toBe(1)
    const second = track(walSync.sync())
    await finishOldest()
    expect(first.done).toBe(true)
    // The running one may have missed what the second caller committed: a new one starts for it.
    expect(second.done).toBe(false)
    expect(started).toBe(2)
    await finishOldest()
    expect(second.done).toBe(true)
  })

  test('the calls that come while one runs share the next one', async () => {
    track(walSync.sync())
    const waiting = [track(walSync.sync()), track(walSync.sync()), track(walSync.sync())]
    await finishOldest()
    expect(started).toBe(2)
    expect(waiting.map((w) => w.done)).toEqual([false, false, false])
    await finishOldest()
    expect(waiting.map((w) => w.done)).toEqual([true, true, true])
    expect(started).toBe(2)
  })

  test('when idle, a call starts an fdatasync at once', async () => {
    const first = track(walSync.sync())
    await finishOldest()
    expect(first.done).toBe(true)
    const later = track(walSync.sync())
    expect(started).toBe(2)
    await finishOldest()
    expect(later.done).toBe(true)
  })

  test('a failed fdatasync rejects every call it serves, and every later one without trying again', async () => {
    track(walSync.sync())
    const a = track(walSync.sync())
    const b = track(walSync.sync())
    await finishOldest()
    await finishOldest(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))
    expect([a.error, b.error].map((e) => (e as Error).message)).toEqual([
      'EIO: i/o error, fdatasync',
      'EIO: i/o error, fdatasync',
    ])
    // The next fdatasync could report clean over pages the failed one dropped: none is started.
    const c = track(walSync.sync())
    await settle()
    expect(started).toBe(2)
    expect(c.done).toBe(false)
    expect((c.error as Error).message).toBe(
      `${walPath} could not be made durable (EIO: i/o error, fdatasync); restart to go on from what is on disk`,
    )
    expect((c.error as { code: string }).code).toBe('EIO')
  })

  test('a WAL file that cannot be opened rejects the call', async () => {
    const missing = new WalSync(join(dir, 'missing.sqlite3-wal'))
    await expect(missing.sync()).rejects.toThrow('ENOENT')
    await missing.close()
  })

  test('the real fdatasync resolves', async () => {
    const real = new WalSync(walPath)
    await Promise.all([real.sync(), real.sync(), real.sync()])
    await real.close()
  })
})

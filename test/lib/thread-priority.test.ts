import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { getPriority, tmpdir } from 'node:os'
import { join } from 'node:path'
import { lowerThreadPriority } from '../../src/lib/thread-priority.ts'

/*
 * lowerThreadPriority changes the calling thread alone or nothing. That it lowers the reader's
 * thread and not the server's is tested with the reader (test/db/reader.test.ts); here, that
 * without a thread id to give setpriority it leaves every thread as it was.
 */

describe('lowerThreadPriority', () => {
  test('changes nothing and says so where the thread id cannot be read', () => {
    const before = getPriority()
    expect(lowerThreadPriority(10, '/nonexistent/thread-self')).toBe(false)
    expect(getPriority()).toBe(before)
  })

  test('changes nothing when what it reads is not a thread id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'belay-thread-self-'))
    try {
      const place = join(dir, 'thread-self')
      symlinkSync('123/task/not-a-number', place)
      const before = getPriority()
      expect(lowerThreadPriority(10, place)).toBe(false)
      expect(getPriority()).toBe(before)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

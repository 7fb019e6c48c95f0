import { describe, expect, test } from 'bun:test'
import type { Change } from '../../../src/core/sites/changes.ts'
import {
  packChanges,
  PartsInWaiting,
  unpackMessage,
  type ChangePart,
} from '../../../src/core/sites/messages.ts'

/*
 * How changes are packed into the hub's messages and put together again: several small ones a
 * message, a large one cut into parts and applied only whole.
 */

/** Change `seq` of site alpha, with `rows` customer rows whose names are `size` characters long. */
function change(seq: number, rows: number, size = 10): Change {
  return {
    site: 'alpha',
    seq,
    lastSeq: seq + rows - 1,
    hlc: `0000001764700000000-${String(seq).padStart(4, '0')}`,
    level: 33,
    rows: Array.from({ length: rows }, (_, i) => ({
      table: 'customers',
      op: 'insert' as const,
      key: [seq + i],
      values: { id: seq + i, first_name: 'x'.repeat(size) },
    })),
  }
}

const bodyOf = (payload: Uint8Array) => unpackMessage(payload)
const { lastSeq: _, ...travelling } = change(1, 1)

describe('packing', () => {
  test('small changes share a message, named by the outbox rows it holds', () => {
    const changes = [change(1, 1), change(2, 3), change(5, 1)]
    const messages = packChanges(changes, 64 * 1024)
    expect(messages.map(({ id, completesThrough }) => ({ id, completesThrough }))).toEqual([
      { id: '1-5', completesThrough: 5 },
    ])
    expect(bodyOf(messages[0]!.payload)).toEqual({
      changes: changes.map(({ lastSeq: _, ...rest }) => rest),
    })
  })

  test('a message is full at the size given: the next change starts another', () => {
    const one = JSON.stringify({ changes: [travelling] }).length
    const messages = packChanges([change(1, 1), change(2, 1), change(3, 1)], one * 2)
    expect(messages.map((message) => message.id)).toEqual(['1-2', '3-3'])
    for (const message of messages) expect(message.payload.length).toBeLessThanOrEqual(one * 2)
  })

  test('a change larger than a message is cut into parts; only the last completes it', () => {
    const large = change(10, 40, 1_000)
    const messages = packChanges([change(1, 1), large, change(50, 1)], 8 * 1024)
    expect(messages.map(({ id, completesThrough }) => ({ id, completesThrough }))).toEqual([
      { id: '1-1', completesThrough: 1 },
      { id: '10-49.1/8', completesThrough: null },
      { id: '10-49.2/8', completesThrough: null },
      { id: '10-49.3/8', completesThrough: null },
      { id: '10-49.4/8', completesThrough: null },
      { id: '10-49.5/8', completesThrough: null },
      { id: '10-49.6/8', completesThrough: null },
      { id: '10-49.7/8', completesThrough: null },
      { id: '10-49.8/8', completesThrough: 49 },
      { id: '50-50', completesThrough: 50 },
    ])
    for (const message of messages) expect(message.payload.length).toBeLessThanOrEqual(8 * 1024)
    const parts = messages.slice(1, 9).map((message) => bodyOf(message.payload))
    expect(parts.map((body) => ('part' in body ? [body.part, body.parts, body.seq] : null))).toEqual(
      Array.from({ length: 8 }, (_, part) => [part, 8, 10]),
    )
  })

  test('one row larger than a message (a scanned document) is cut too, and comes back byte for byte', () => {
    const scan = {
      ...change(3, 1),
      rows: [
        {
          table: 'customer_photos',
          op: 'insert' as const,
          key: [3],
          values: { customer_id: 3, content: 'ab'.repeat(150_000) },
        },
      ],
    }
    const messages = packChanges([scan], 32 * 1024)
    expect(messages).toHaveLength(13)
    for (const message of messages) expect(message.payload.length).toBeLessThanOrEqual(32 * 1024)
    let waiting = new PartsInWaiting()
    let whole: unknown = null
    for (const [index, message] of messages.entries()) {
      const taken = waiting.take('alpha', bodyOf(message.payload) as ChangePart, 100 + index)
      waiting = taken.after
      whole = taken.whole
    }
    expect(whole).toEqual({ ...scan, lastSeq: scan.seq })
  })

  test('a message from the first sites, one bare change, reads as one change', () => {
    expect(bodyOf(new TextEncoder().encode(JSON.stringify(travelling)))).toEqual({ changes: [travelling] })
  })
})

describe('parts waiting for their last', () => {
  const large = change(10, 40, 1_000)
  const parts = packChanges([large], 8 * 1024).map((message) => bodyOf(message.payload) as ChangePart)

  test('the change comes whole with its last part, as it was made', () => {
    let waiting = new PartsInWaiting()
    for (const [index, part] of parts.entries()) {
      const { after, whole } = waiting.take('alpha', part, 100 + index)
      waiting = after
      if (index < parts.length - 1) {
        expect(whole).toBeNull()
        expect(waiting.earliest()).toBe(100)
      } else expect(whole).toEqual({ ...large, lastSeq: large.seq })
    }
    expect(waiting.earliest()).toBeNull()
  })

  test('taking a part leaves the parts before it as they were (an apply that fails keeps them)', () => {
    const start = new PartsInWaiting().take('alpha', parts[0]!, 100).after
    const next = start.take('alpha', parts[1]!, 101)
    expect(next.whole).toBeNull()
    // The same part again, from the state before it: taken again.
    expect(start.take('alpha', parts[1]!, 101).whole).toBeNull()
    expect(start.earliest()).toBe(100)
  })

  test('a first part sent again starts the change again; a part out of its place is refused', () => {
    let waiting = new PartsInWaiting().take('alpha', parts[0]!, 100).after
    waiting = waiting.take('alpha', parts[1]!, 101).after
    expect(waiting.take('alpha', parts[3]!, 102).whole).toBe('out of order')
    waiting = waiting.take('alpha', parts[0]!, 200).after
    expect(waiting.earliest()).toBe(200)
    for (const [index, part] of parts.slice(1).entries()) {
      const taken = waiting.take('alpha', part, 201 + index)
      waiting = taken.after
      if (index === parts.length - 2) expect(taken.whole).toEqual({ ...large, lastSeq: large.seq })
    }
    expect(new PartsInWaiting().take('alpha', parts[2]!, 300).whole).toBe('out of order')
  })

  test("two sites' large changes wait side by side; the position waits for the earlier", () => {
    const other = packChanges([{ ...change(7, 40, 1_000), site: 'bravo' }], 8 * 1024).map(
      (message) => bodyOf(message.payload) as ChangePart,
    )
    let waiting = new PartsInWaiting().take('alpha', parts[0]!, 100).after
    waiting = waiting.take('bravo', other[0]!, 101).after
    expect(waiting.earliest()).toBe(100)
    for (const [index, part] of parts.slice(1).entries())
      waiting = waiting.take('alpha', part, 102 + index).after
    expect(waiting.earliest()).toBe(101)
  })
})

import { describe, expect, test } from 'bun:test'
import { formatHlc, hybridLogicalClock, parseHlc, ZERO_HLC } from '../../src/lib/hlc.ts'

describe('hybrid logical clock', () => {
  test('follows the wall clock, counting within one millisecond', () => {
    let wall = 1_000
    const clock = hybridLogicalClock(() => wall)
    expect([clock.now(), clock.now()]).toEqual(['000000000001000-000000', '000000000001000-000001'])
    wall = 1_005
    expect(clock.now()).toBe('000000000001005-000000')
  })

  test('never goes back when the wall clock does', () => {
    let wall = 5_000
    const clock = hybridLogicalClock(() => wall)
    const before = clock.now()
    wall = 4_000
    const after = clock.now()
    expect(after > before).toBe(true)
    expect(after).toBe('000000000005000-000001')
  })

  test('a received timestamp from a box hours ahead is passed by the next local one', () => {
    const clock = hybridLogicalClock(() => 1_000)
    const ahead = formatHlc(1_000 + 3 * 3_600_000, 7)
    clock.receive(ahead)
    const next = clock.now()
    expect(next).toBe('000000010801000-000008')
    expect(next > ahead).toBe(true)
    // An older one received changes nothing.
    clock.receive(formatHlc(10, 0))
    expect(clock.now()).toBe('000000010801000-000009')
  })

  test('carries on after the last timestamp kept across a restart', () => {
    const clock = hybridLogicalClock(() => 1_000, '000000000009000-000004')
    expect(clock.last()).toBe('000000000009000-000004')
    expect(clock.now()).toBe('000000000009000-000005')
  })

  test('a million timestamps in one millisecond borrow the next one', () => {
    const clock = hybridLogicalClock(() => 0, '000000000000007-999999')
    expect(clock.now()).toBe('000000000000008-000000')
  })

  test('text order is time order; a malformed timestamp is refused', () => {
    expect(formatHlc(999, 999_999) < formatHlc(1_000, 0)).toBe(true)
    expect(ZERO_HLC).toBe('000000000000000-000000')
    expect(parseHlc('000000000001000-000002')).toEqual({ ms: 1000, counter: 2 })
    expect(() => parseHlc('1000-2')).toThrow('not a hybrid logical clock timestamp: "1000-2"')
  })
})

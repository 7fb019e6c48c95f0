import { describe, expect, test } from 'bun:test'
import { endOfLocalDay, isExpired, localDate, startOfLocalDay } from '../../src/lib/local-time.ts'

describe('local time', () => {
  test('the local day of an instant depends on the zone', () => {
    const instant = new Date('2026-11-22T05:30:00Z')
    expect(localDate(instant, 'UTC')).toBe('2026-11-22')
    expect(localDate(instant, 'America/Denver')).toBe('2026-11-21')
  })

  test('day bounds in a zone, including a DST change (Denver falls back on 2026-11-01)', () => {
    expect(startOfLocalDay('2026-11-22', 'America/Denver')).toBe('2026-11-22T07:00:00.000Z')
    expect(endOfLocalDay('2026-11-22', 'America/Denver')).toBe('2026-11-23T07:00:00.000Z')
    expect(startOfLocalDay('2026-11-01', 'America/Denver')).toBe('2026-11-01T06:00:00.000Z')
    expect(endOfLocalDay('2026-11-01', 'America/Denver')).toBe('2026-11-02T07:00:00.000Z')
  })

  const cases: Array<[string, string | null, string, boolean]> = [
    ['no expiry date never expires', null, '2030-01-01T00:00:00Z', false],
    ['usable through the last local minute of the day', '2026-11-22', '2026-11-23T06:59:59Z', false],
    ['expired from local midnight after it', '2026-11-22', '2026-11-23T07:00:00Z', true],
    ['not expired before the day', '2026-11-22', '2026-11-21T12:00:00Z', false],
  ]
  for (const [name, expiry, now, expired] of cases) {
    test(name, () => expect(isExpired(expiry, 'America/Denver', new Date(now))).toBe(expired))
  }
})

import { describe, expect, test } from 'bun:test'
import { bucketInstants, planBuckets } from '../../../src/core/metrics/buckets.ts'

// Each bucket as the stretch of instants it covers: what revenue sums, one stretch of its index
// per bucket. A day is as long as the zone's clock makes it.

const stretches = (interval: 'daily' | 'monthly', start: string, end: string, zone: string) =>
  bucketInstants(planBuckets(interval, start, end, zone, '2026-11-22')).map(({ fromInstant, toInstant }) => [
    fromInstant,
    toInstant,
  ])

describe('bucketInstants', () => {
  test('the day daylight time ends in Denver runs 25 hours', () => {
    expect(stretches('daily', '2026-10-31', '2026-11-02', 'America/Denver')).toEqual([
      ['2026-10-31T06:00:00.000Z', '2026-11-01T06:00:00.000Z'],
      ['2026-11-01T06:00:00.000Z', '2026-11-02T07:00:00.000Z'],
      ['2026-11-02T07:00:00.000Z', '2026-11-03T07:00:00.000Z'],
    ])
  })

  test('where the clock skips midnight, the day starts when it skips it', () => {
    // Santiago goes from 23:59:59 -04 on 2026-09-05 to 01:00 -03 on 2026-09-06: a 23-hour day.
    expect(stretches('daily', '2026-09-05', '2026-09-07', 'America/Santiago')).toEqual([
      ['2026-09-05T04:00:00.000Z', '2026-09-06T04:00:00.000Z'],
      ['2026-09-06T04:00:00.000Z', '2026-09-07T03:00:00.000Z'],
      ['2026-09-07T03:00:00.000Z', '2026-09-08T03:00:00.000Z'],
    ])
  })

  test('half-hour offsets, and months that change offset within them', () => {
    expect(stretches('daily', '2026-01-01', '2026-01-01', 'Asia/Kolkata')).toEqual([
      ['2025-12-31T18:30:00.000Z', '2026-01-01T18:30:00.000Z'],
    ])
    expect(stretches('monthly', '2026-02-10', '2026-04-01', 'America/Denver')).toEqual([
      ['2026-02-01T07:00:00.000Z', '2026-03-01T07:00:00.000Z'],
      ['2026-03-01T07:00:00.000Z', '2026-04-01T06:00:00.000Z'],
      ['2026-04-01T06:00:00.000Z', '2026-05-01T06:00:00.000Z'],
    ])
  })
})

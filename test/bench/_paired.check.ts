import { describe, expect, test } from 'bun:test'
import { describePairedRatio, pairedRatio } from './_paired.ts'

describe('pairedRatio: two builds measured round by round', () => {
  test('builds that keep the same ratio in every round: that ratio, with no doubt about it', () => {
    expect(pairedRatio([2, 4, 8], [1, 2, 4])).toEqual({ ratios: [2, 2, 2], mean: 2, low: 2, high: 2 })
  })

  test('a round 10% ahead and one 10% behind cancel; two rounds leave a wide interval (t = 12.706)', () => {
    const paired = pairedRatio([110, 100], [100, 110])
    expect(paired.mean).toBeCloseTo(1, 12)
    // log 1.1 = 0.09531; its standard error over two rounds is 0.09531, times 12.706
    expect(paired.low).toBeCloseTo(Math.exp(-12.706 * Math.log(1.1)), 12)
    expect(paired.high).toBeCloseTo(Math.exp(12.706 * Math.log(1.1)), 12)
    expect(describePairedRatio(paired)).toBe('1.000 (95% CI 0.298 to 3.357; by round 1.10, 0.91)')
  })

  test('one round gives a ratio but no interval', () => {
    expect(describePairedRatio(pairedRatio([1980], [1971]))).toBe(
      '1.005 (one round: no interval; by round 1.00)',
    )
  })

  test('a round without a figure from each build is refused', () => {
    expect(() => pairedRatio([1, 2], [1])).toThrow('one figure of each build per round')
    expect(() => pairedRatio([], [])).toThrow('one figure of each build per round')
  })
})

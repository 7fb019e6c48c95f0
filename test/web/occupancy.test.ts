import { expect, test } from 'bun:test'
import { occupancyLevel } from '../../src/web/screens/today/occupancy.ts'

test.each([
  ['no capacity set', 120, null, 'normal'],
  ['empty', 0, 50, 'normal'],
  ['just under 80%', 39, 50, 'normal'],
  ['80% exactly: amber', 40, 50, 'busy'],
  ['just under 90%', 44, 50, 'busy'],
  ['90% exactly: red', 45, 50, 'full'],
  ['over capacity', 61, 50, 'full'],
  ['a capacity of 0 is no capacity', 3, 0, 'normal'],
] as const)('%s: %d inside of %p is %s', (_, inside, capacity, level) => {
  expect(occupancyLevel(inside, capacity)).toBe(level)
})

import { describe, expect, test } from 'bun:test'
import { centsToDecimal, centsToNumber, toCents, unitsToDecimal } from '../../src/lib/money.ts'

describe('money', () => {
  const decimals: Array<[number, string]> = [
    [0, '0.00'],
    [5, '0.05'],
    [1250, '12.50'],
    [-1250, '-12.50'],
    [100000, '1000.00'],
  ]
  for (const [cents, text] of decimals)
    test(`${cents} cents reads "${text}"`, () => expect(centsToDecimal(cents)).toBe(text))

  const otherPlaces: Array<[number, number, string]> = [
    [825, 4, '0.0825'],
    [0, 4, '0.0000'],
    [9999, 4, '0.9999'],
    [1250, 2, '12.50'],
    [10000, 2, '100.00'],
  ]
  for (const [units, places, text] of otherPlaces)
    test(`${units} units of ${places} places read "${text}"`, () =>
      expect(unitsToDecimal(units, places)).toBe(text))

  test('credits are numbers', () => expect(centsToNumber(1250)).toBe(12.5))

  const parsed: Array<[number | string, number]> = [
    ['12.50', 1250],
    [12.5, 1250],
    [0.015, 2],
    [19.99, 1999],
    [-0.015, -2],
  ]
  for (const [amount, cents] of parsed)
    test(`${JSON.stringify(amount)} is ${cents} cents`, () => expect(toCents(amount)).toBe(cents))
})

import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { contrastRatio } from './contrast.ts'

/**
 * The desk's palette, read from its stylesheet: each pair of text and background it uses meets
 * WCAG AA for normal text (4.5:1), the amber of a busy gym too, which the browser tests do not reach.
 */
const css = readFileSync(join(import.meta.dir, '../../src/web/desk.css'), 'utf8')
const palette = Object.fromEntries(
  [...css.matchAll(/--([a-z]+): #([0-9a-f]{6});/g)].map(([, name, hex]) => [
    name!,
    [0, 2, 4].map((i) => parseInt(hex!.slice(i, i + 2), 16)),
  ]),
)
const white = [255, 255, 255]

test('the ratio itself: black on white is 21, a colour on itself 1', () => {
  expect(contrastRatio([0, 0, 0], white)).toBe(21)
  expect(contrastRatio([26, 127, 55], [26, 127, 55])).toBe(1)
})

test.each([
  ['ink on the page', 'ink', 'paper'],
  ['muted text on the page', 'muted', 'paper'],
  ['white on a green card', 'white', 'ok'],
  ['white on a red card (and a full gym)', 'white', 'refused'],
  ['a refusal in red on the page', 'refused', 'paper'],
  ['an action done, in green on the page', 'ok', 'paper'],
  ['ink on the amber of a busy gym', 'ink', 'busy'],
  ['white on a button', 'white', 'action'],
  ['a quiet button on the page', 'action', 'paper'],
])('%s: at least 4.5:1', (_, text, background) => {
  const colour = (name: string) => (name === 'white' ? white : palette[name]!)
  expect(contrastRatio(colour(text), colour(background))).toBeGreaterThanOrEqual(4.5)
})

import type { GradeSystem } from './schema.ts'
import type { GradeDiscipline } from '../../core/walls/disciplines.ts'

/*
 * The standard scales `load-scale/` adds, easiest first, each for the discipline it is written for:
 * V and Font grade boulders, YDS and French grade routes. A circuit's colours and a gym's own grades
 * (CIRCUIT, OTHER) have no standard list: their grades are added one by one.
 */

const FRENCH_LETTERS = ['a', 'b', 'c'] as const

export const STANDARD_SCALES: Partial<
  Record<GradeSystem, { discipline: GradeDiscipline; names: readonly string[] }>
> = {
  /** V0 to V10. */
  V: { discipline: 'BOU', names: Array.from({ length: 11 }, (_, n) => `V${n}`) },
  /** 5.6 to 5.9, then 5.10a to 5.13d. */
  YDS: {
    discipline: 'ROP',
    names: [
      ...[6, 7, 8, 9].map((n) => `5.${n}`),
      ...[10, 11, 12, 13].flatMap((n) => ['a', 'b', 'c', 'd'].map((letter) => `5.${n}${letter}`)),
    ],
  },
  /** Font 4 to 8A, as boulderers write it: 4, 5, 5+, then 6A to 7C+ with their + grades, then 8A. */
  FONT: {
    discipline: 'BOU',
    names: [
      '4',
      '5',
      '5+',
      ...[6, 7].flatMap((n) => ['A', 'B', 'C'].flatMap((letter) => [`${n}${letter}`, `${n}${letter}+`])),
      '8A',
    ],
  },
  /** French 4a to 8a: plain letters up to 5c, then 6a to 7c+ with their + grades, then 8a. */
  FRENCH: {
    discipline: 'ROP',
    names: [
      ...[4, 5].flatMap((n) => FRENCH_LETTERS.map((letter) => `${n}${letter}`)),
      ...[6, 7].flatMap((n) => FRENCH_LETTERS.flatMap((letter) => [`${n}${letter}`, `${n}${letter}+`])),
      '8a',
    ],
  },
}

import type { ClimbDiscipline, GradeDiscipline, SectionDiscipline } from '../core/walls/disciplines.ts'
import type { GradeTable } from '../db/tables/walls.ts'

/*
 * What the demo's walls are made of: each gym's sections, the grade scales and the curve the
 * setters aim for, hold colours and climb names. src/demo/walls.ts sets and strips climbs from it.
 */

/** How far back the demo's route setting goes. */
export const WALL_HISTORY_DAYS = 2 * 365

export interface SectionSpec {
  name: string
  discipline: SectionDiscipline
  description: string
  /** How many climbs of each discipline a reset puts up. */
  climbs: Partial<Record<ClimbDiscipline, number>>
  /** The hardest grade set here (the kids' wall), by name. */
  hardest?: string
}

export interface WallSpec {
  sections: SectionSpec[]
  /** Weekdays (0 = Sunday) on which the next bouldering section (BOU or MIX) of the rotation is reset. */
  boulderDays: number[]
  /** Weekdays on which the next rope section is reset. */
  ropeDays: number[]
}

const boulders = (name: string, count: number, description: string, hardest?: string): SectionSpec => ({
  name,
  discipline: 'BOU',
  description,
  climbs: { BOU: count },
  ...(hardest === undefined ? {} : { hardest }),
})
const ropes = (name: string, climbs: SectionSpec['climbs'], description: string): SectionSpec => ({
  name,
  discipline: 'ROP',
  description,
  climbs,
})

/**
 * The walls of each demo gym, by the gym's index: the big first gym resets a bouldering section
 * twice a week (each comes round every four weeks) and a rope section weekly, the smaller ones
 * less. Over two years the first gym sets about 7,000 climbs.
 */
export const WALLS: readonly WallSpec[] = [
  {
    sections: [
      boulders('The Cave', 36, 'Steep roof boulders under the mezzanine.'),
      boulders('Slab Wall', 26, 'Low-angle slab: feet, balance and trust.'),
      boulders('The Prow', 32, 'The arete and both faces beside it.'),
      boulders('Competition Wall', 34, 'Vertical to slightly overhanging; the comp-style problems.'),
      boulders('Overhang', 36, 'Thirty-degree wall with a kicker.'),
      boulders('The Arch', 30, 'Corners and the arch between them.'),
      boulders("Kids' Corner", 14, 'Short problems for kids and first-timers.', 'V3'),
      {
        name: 'The Annex',
        discipline: 'MIX',
        description: 'Training boulders and two auto-belay lines beside the fitness area.',
        climbs: { BOU: 16, AUT: 4 },
      },
      ropes('Lead Cave', { LEA: 14 }, 'The steep lead wall; bring a rope and quickdraws.'),
      ropes('Auto-belay Alley', { AUT: 8 }, 'Auto-belays for laps and warm-ups.'),
      ropes('Top-rope Slab', { TR: 16 }, 'Slabby top-rope lines, good for learning to climb.'),
      ropes('The Tower', { LEA: 10, TR: 8 }, 'The freestanding tower: lead on the outside, top rope inside.'),
      ropes('North Face', { TR: 16 }, 'Vertical top-rope lines on the north wall.'),
    ],
    boulderDays: [2, 4],
    ropeDays: [3],
  },
  {
    sections: [
      boulders('The Cave', 32, 'The steep cave at the back.'),
      boulders('Slab Wall', 24, 'Slab and low-angle problems.'),
      boulders('The Wave', 30, 'The curving wall from vertical to roof.'),
      boulders('The Roof', 28, 'Horizontal roof problems with a big topout.'),
      boulders("Kids' Corner", 12, 'Short problems for kids and first-timers.', 'V3'),
      ropes('Lead Cave', { LEA: 12 }, 'The lead wall.'),
      ropes('Auto-belay Alley', { AUT: 6 }, 'Auto-belays for laps and warm-ups.'),
      ropes('Top-rope Wall', { TR: 14 }, 'Top-rope lines from 5.6 up.'),
    ],
    boulderDays: [2, 5],
    ropeDays: [3],
  },
  {
    sections: [
      boulders('The Cave', 28, 'The steep cave.'),
      boulders('Slab Wall', 20, 'Slab and low-angle problems.'),
      boulders('The Prow', 26, 'The arete and both faces beside it.'),
      boulders("Kids' Corner", 10, 'Short problems for kids and first-timers.', 'V3'),
      ropes('Lead Cave', { LEA: 12 }, 'The lead wall.'),
      ropes('Auto-belay Alley', { AUT: 6 }, 'Auto-belays for laps and warm-ups.'),
      ropes('Top-rope Slab', { TR: 12 }, 'Slabby top-rope lines.'),
    ],
    boulderDays: [3],
    ropeDays: [4],
  },
]

/** A grade scale: its names in rank order, each with its share of the climbs up (the grade curve). */
export interface Scale {
  system: GradeTable['system']
  discipline: GradeDiscipline
  grades: readonly (readonly [name: string, share: number])[]
}

/** More easy-middle grades than hard ones, as setters plan a curve for the people who climb there. */
export const SCALES: readonly Scale[] = [
  {
    system: 'V',
    discipline: 'BOU',
    grades: [
      ['V0', 8],
      ['V1', 12],
      ['V2', 14],
      ['V3', 15],
      ['V4', 14],
      ['V5', 12],
      ['V6', 9],
      ['V7', 7],
      ['V8', 4],
      ['V9', 3],
      ['V10', 2],
    ],
  },
  {
    system: 'YDS',
    discipline: 'ROP',
    grades: [
      ['5.6', 3],
      ['5.7', 5],
      ['5.8', 7],
      ['5.9', 9],
      ['5.10a', 8],
      ['5.10b', 8],
      ['5.10c', 7],
      ['5.10d', 7],
      ['5.11a', 6],
      ['5.11b', 6],
      ['5.11c', 5],
      ['5.11d', 5],
      ['5.12a', 4],
      ['5.12b', 3],
      ['5.12c', 3],
      ['5.12d', 2],
      ['5.13a', 2],
      ['5.13b', 1],
      ['5.13c', 1],
      ['5.13d', 1],
    ],
  },
]

/** Auto-belay lines are for laps: nothing harder than this. */
export const HARDEST_AUTO_BELAY = '5.10d'

export const HOLD_COLORS: readonly (readonly [name: string, hex: string])[] = [
  ['red', '#D32F2F'],
  ['orange', '#F57C00'],
  ['yellow', '#FBC02D'],
  ['green', '#388E3C'],
  ['teal', '#00897B'],
  ['blue', '#1976D2'],
  ['purple', '#7B1FA2'],
  ['pink', '#E91E63'],
  ['black', '#212121'],
  ['white', '#FAFAFA'],
  ['grey', '#9E9E9E'],
]

export const CLIMB_NAMES = [
  'Crimp Scampi',
  'Dyno Might',
  'Slab Happy',
  'Pinch Me',
  'Heel Turn',
  'Gaston Martin',
  'Sloper Opera',
  'Jug Life',
  'The Mantle Piece',
  'Undercling Cling',
  'Grey Matter',
  'Flash Gordon',
  'Pocket Rocket',
  'Toe Hook Taco',
  'Arete You Ready',
  'Chalk Talk',
  'Sandbag Shuffle',
  'Rock Lobster',
  'Beige Against the Machine',
  'Crux Capacitor',
  'Beta Max',
  'Rose Move',
  'Knee Bar Lounge',
  'Drop Knee Disco',
  'Granite Expectations',
  'The Long Reach',
  'Crux Control',
  'Smear Campaign',
  'Bump It Up',
  'Campus Crusade',
  'Highball Heaven',
  'Stem Cell',
  'Flagging Spirits',
  'Barn Door Blues',
  'Side Pull Saga',
  'Tick Tock',
  'Cold Front',
  'Foothills',
  'Front Range',
  'Mile High',
] as const

export const BOULDER_NOTES = [
  'Sit start.',
  'Start matched on the jug.',
  'No arete.',
  'Feet follow hands.',
] as const

import { choices } from '../../lib/choices.ts'

/*
 * What a climb's discipline may be, by its grade's and its section's (walls.md). A grade's scale is
 * a boulder's (BOU) or a rope's (ROP); a rope climb is top-rope (TR), lead (LEA) or auto-belay
 * (AUT). A section is for boulders, ropes, or both (MIX).
 */

export const CLIMB_DISCIPLINES = choices({ BOU: 'Boulder', TR: 'Top rope', LEA: 'Lead', AUT: 'Auto-belay' })
export type ClimbDiscipline = (typeof CLIMB_DISCIPLINES)[number]

export const GRADE_DISCIPLINES = choices({ BOU: 'Boulder', ROP: 'Rope' })
export type GradeDiscipline = (typeof GRADE_DISCIPLINES)[number]

export const SECTION_DISCIPLINES = choices({ BOU: 'Boulders', ROP: 'Ropes', MIX: 'Boulders and ropes' })
export type SectionDiscipline = (typeof SECTION_DISCIPLINES)[number]

/** The climbs' disciplines a grade discipline covers: ROP is every rope climb. */
export const climbDisciplinesOf: Record<GradeDiscipline, readonly ClimbDiscipline[]> = {
  BOU: ['BOU'],
  ROP: ['TR', 'LEA', 'AUT'],
}

/** The grade discipline a climb of `discipline` is graded on. */
export const gradeDisciplineOf = (discipline: ClimbDiscipline): GradeDiscipline =>
  discipline === 'BOU' ? 'BOU' : 'ROP'

/** How a climb's discipline is refused when its grade or its section does not suit it. */
export const disciplineMessages = {
  grade: {
    BOU: 'The grade is a boulder grade (BOU): the climb must be BOU.',
    ROP: 'The grade is a rope grade (ROP): the climb must be TR, LEA or AUT.',
  },
  section: {
    BOU: 'The section is for boulders (BOU): the climb must be BOU.',
    ROP: 'The section is for ropes (ROP): the climb must be TR, LEA or AUT.',
  },
} as const

/** Why a climb of `discipline` does not suit its grade; undefined when it does. */
export const gradeRefusal = (discipline: ClimbDiscipline, grade: GradeDiscipline): string | undefined =>
  gradeDisciplineOf(discipline) === grade ? undefined : disciplineMessages.grade[grade]

/** Why a climb of `discipline` does not suit its section; undefined when it does (MIX takes any). */
export const sectionRefusal = (
  discipline: ClimbDiscipline,
  section: SectionDiscipline,
): string | undefined =>
  section === 'MIX' || gradeDisciplineOf(discipline) === section
    ? undefined
    : disciplineMessages.section[section]

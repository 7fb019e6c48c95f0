/**
 * How the Walls screen names disciplines, colours, dates and the grade curve: pure, so the tests
 * read them without a page. Staff read words, never the API's codes.
 */
import { plainErrorLines } from '../../plain-words.ts'
import type { Climb, ClimbDiscipline, ClimbStats, Grade, GradeDiscipline, Section } from '../../types.ts'
import type { Figures } from '../dashboard/figures.ts'

/** The two halves of the gym the screen shows one at a time: a grade scale each. */
export type WallKind = GradeDiscipline

export const KIND_WORDS: Record<WallKind, string> = { BOU: 'Boulders', ROP: 'Ropes' }

/** How many climbs of a kind, in words: "1 boulder", "12 rope climbs". */
export const climbCount = (n: number, kind: WallKind): string =>
  kind === 'BOU'
    ? `${n} ${n === 1 ? 'boulder' : 'boulders'}`
    : `${n} ${n === 1 ? 'rope climb' : 'rope climbs'}`

/** A climb's discipline as staff say it. */
export const CLIMB_KIND_WORDS: Record<ClimbDiscipline, string> = {
  BOU: 'Boulder',
  TR: 'Top rope',
  LEA: 'Lead',
  AUT: 'Auto-belay',
}

/** A climb's discipline from the API in words; a rope climb of a kind this page does not know is a rope. */
export const climbKindWords = (discipline: string): string =>
  CLIMB_KIND_WORDS[discipline as ClimbDiscipline] ?? 'Rope'

/** The kinds of rope climb, in the order the form offers them. */
export const ROPE_KINDS: ClimbDiscipline[] = ['TR', 'LEA', 'AUT']

/** The gym's active sections for boulders or for ropes (a mixed one is both), in the gym's order. */
export const sectionsFor = (kind: WallKind, sections: Section[]): Section[] =>
  sections
    .filter((s) => s.is_active && (s.discipline === kind || s.discipline === 'MIX'))
    .sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name) || a.id - b.id)

/** The active grades of one discipline, easiest first. */
export const gradesFor = (kind: WallKind, grades: Grade[]): Grade[] =>
  grades.filter((g) => g.is_active && g.discipline === kind).sort((a, b) => a.rank - b.rank || a.id - b.id)

/** Which half of the gym a climb's discipline belongs to. */
export const kindOf = (discipline: string): WallKind => (discipline === 'BOU' ? 'BOU' : 'ROP')

/**
 * The hold colours setters name, each with the colour a card and a swatch draw it in. A word not
 * here is sent as typed, without a colour of its own.
 */
export const HOLD_COLOURS: Record<string, string> = {
  black: '#1f1f1f',
  blue: '#1f5fd1',
  brown: '#7b4a26',
  green: '#1e9e3a',
  grey: '#8a8f98',
  lime: '#9bd22e',
  orange: '#f28c1c',
  pink: '#f06fb0',
  purple: '#7d3fc2',
  red: '#d32f2f',
  teal: '#14998f',
  white: '#ffffff',
  yellow: '#f5d300',
}

/** A colour word's hex (`Teal`, ` teal ` and `TEAL` alike), or null for a word the list lacks. */
export const colourHex = (word: string): string | null => HOLD_COLOURS[word.trim().toLowerCase()] ?? null

/** The colour a climb is drawn in: its own, else its word's; null when neither is known. */
export const climbHex = (climb: Pick<Climb, 'color_hex' | 'hold_color'>): string | null =>
  climb.color_hex ?? colourHex(climb.hold_color)

/** A word as a card prints it: its first letter capital. */
export const capitalised = (word: string) => (word === '' ? '' : word[0]!.toUpperCase() + word.slice(1))

const shortDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })
const longDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
})

/** A local date (YYYY-MM-DD) as the screen writes it: "2 Dec". */
export const dayWords = (date: string) => shortDate.format(new Date(`${date}T12:00:00Z`))

/** A local date as a card prints it, a wall's card stays up for months: "2 Dec 2026". */
export const fullDayWords = (date: string) => longDate.format(new Date(`${date}T12:00:00Z`))

/** How long a climb has been up: "Set today", "Set 2 Dec · 1 day up", "Set 2 Dec · 30 days up". */
export function upWords(climb: Pick<Climb, 'set_date' | 'days_up'>): string {
  if (climb.days_up === 0) return 'Set today'
  return `Set ${dayWords(climb.set_date)} · ${climb.days_up} ${climb.days_up === 1 ? 'day' : 'days'} up`
}

/** A section's line in the list: "14 up · reset 12 Oct", "No climbs up · never reset". */
export function sectionFacts(section: Pick<Section, 'climbs_up' | 'last_reset_date'>): string {
  const up = section.climbs_up === 0 ? 'No climbs up' : `${section.climbs_up} up`
  const reset =
    section.last_reset_date === null ? 'never reset' : `reset ${dayWords(section.last_reset_date)}`
  return `${up} · ${reset}`
}

/** What resetting a section asks before anything comes down. */
export function resetQuestion(section: Pick<Section, 'name'>, up: number): string {
  const down =
    up === 0
      ? 'No climbs are up in it: nothing comes down, and today is recorded as its reset.'
      : up === 1
        ? 'The 1 climb up in it comes down today.'
        : `All ${up} climbs up in it come down today.`
  return `Reset ${section.name}? ${down}`
}

/** A climb in a few words: "V4 teal", "5.10a teal Lead", "V4 teal “Crimp city”". */
export function climbWords(climb: Pick<Climb, 'grade_name' | 'hold_color' | 'name' | 'discipline'>): string {
  const parts = [climb.grade_name, climb.hold_color]
  if (climb.discipline !== 'BOU') parts.push(climbKindWords(climb.discipline))
  if (climb.name !== '') parts.push(`“${climb.name}”`)
  return parts.filter((p) => p !== '').join(' ')
}

/** How many are up against how many the setters aim for: "9 of 10", "3" without a target. */
const upOf = (up: number, target: number | null) => (target === null ? String(up) : `${up} of ${target}`)

/**
 * The grade curve as the dashboard's chart draws figures: a bar per grade for the climbs up, and
 * the targets as a dashed line (a gap where a grade has none).
 */
export function gradeCurveFigures(stats: ClimbStats): Figures {
  return {
    bucketHeading: 'Grade',
    bucketColumn: 'grade',
    buckets: stats.by_grade.map((g) => g.grade_name),
    series: [
      { id: 'up', label: 'Up now', unit: 'count', values: stats.by_grade.map((g) => g.up) },
      { id: 'target', label: 'Target', unit: 'count', values: stats.by_grade.map((g) => g.target_count) },
    ],
    covers: `${climbCount(stats.climbs_up, kindOf(stats.discipline))} up`,
  }
}

/** One grade of the curve as its table reads it: up, target, and how far off. */
export interface CurveRow {
  grade: string
  up: string
  gap: string
}

export function curveRows(stats: ClimbStats): CurveRow[] {
  return stats.by_grade.map((g) => ({
    grade: g.grade_name,
    up: upOf(g.up, g.target_count),
    gap:
      g.target_count === null || g.up === g.target_count
        ? ''
        : g.up < g.target_count
          ? `${g.target_count - g.up} short`
          : `${g.up - g.target_count} over`,
  }))
}

/** The grades the summary names, the most short first: the table lists the rest. */
const MOST_SHORT = 3

/**
 * The curve in one line beside the chart: what is up against the targets, and the grades most
 * short of theirs, which is what a setter plans the next climbs by.
 */
export function curveSummary(stats: ClimbStats): string {
  const kind = kindOf(stats.discipline)
  if (stats.by_grade.length === 0) return `No grades for ${KIND_WORDS[kind].toLowerCase()} yet.`
  const targets = stats.by_grade.filter((g) => g.target_count !== null)
  const aimed = targets.reduce((sum, g) => sum + g.target_count!, 0)
  const up = `${climbCount(stats.climbs_up, kind)} up`
  if (targets.length === 0) return `${up}; no grade has a target.`
  const short = targets
    .filter((g) => g.up < g.target_count!)
    .sort((a, b) => b.target_count! - b.up - (a.target_count! - a.up) || a.rank - b.rank)
  const most = short.slice(0, MOST_SHORT).map((g) => `${g.grade_name} by ${g.target_count! - g.up}`)
  const more = short.length - most.length
  const shortWords =
    short.length === 0
      ? 'every grade is at its target or over.'
      : `most short: ${most.join(', ')}${more === 0 ? '' : more === 1 ? ' and 1 more grade' : ` and ${more} more grades`}.`
  return `${up} of ${aimed} aimed for; ${shortWords}`
}

/** The standard scales the API adds with load-scale, as the desk offers them. */
export const SCALES: Record<WallKind, { system: string; words: string }[]> = {
  BOU: [
    { system: 'V', words: 'V scale (V0 to V10)' },
    { system: 'FONT', words: 'Font scale (4 to 8A)' },
  ],
  ROP: [
    { system: 'YDS', words: 'YDS scale (5.6 to 5.13d)' },
    { system: 'FRENCH', words: 'French scale (4a to 8a)' },
  ],
}

/** The add form's fields as it labels them, for the API's refusals of them. */
const FORM_LABELS: Record<string, string> = {
  grade_id: 'Grade',
  hold_color: 'Colour',
  color_hex: 'Colour',
  name: 'Name',
  discipline: 'Type',
  section_id: 'Section',
  setter_ids: 'Setters',
  set_date: 'Set on',
  date: 'Date',
}

/**
 * A refusal of a climb's fields in the form's words: "Setters: This list may not be empty." A body
 * of any other shape reads as the desk reads every refusal.
 */
export function refusalLines(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || 'detail' in body)
    return plainErrorLines(body)
  return Object.entries(body).flatMap(([field, value]) => {
    const label = FORM_LABELS[field]
    const lines = plainErrorLines(value)
    return field === 'non_field_errors' || label === undefined
      ? plainErrorLines({ [field]: value })
      : lines.map((line) => `${label}: ${line}`)
  })
}

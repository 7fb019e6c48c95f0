import { describe, expect, test } from 'bun:test'
import {
  climbHex,
  climbWords,
  colourHex,
  curveRows,
  curveSummary,
  gradeCurveFigures,
  refusalLines,
  resetQuestion,
  sectionFacts,
  sectionsFor,
  upWords,
} from '../../src/web/screens/walls/wall-words.ts'

const grade = (grade_id: number, grade_name: string, up: number, target_count: number | null) => ({
  grade_id,
  grade_name,
  rank: grade_id,
  up,
  target_count,
})

const stats = {
  discipline: 'BOU' as const,
  climbs_up: 9,
  by_grade: [grade(0, 'V0', 4, 3), grade(1, 'V1', 1, 4), grade(2, 'V2', 2, 4), grade(3, 'V3', 2, null)],
  by_section: [],
  by_setter: [],
  due_to_strip: [],
}

describe("the Walls screen's words", () => {
  test('a climb in words: grade, colour, a rope kind, its name; no code shown', () => {
    const climb = { grade_name: 'V4', hold_color: 'teal', name: '', discipline: 'BOU' as const }
    expect(climbWords(climb)).toBe('V4 teal')
    expect(climbWords({ ...climb, grade_name: '5.10a', discipline: 'LEA', name: 'Crimp City' })).toBe(
      '5.10a teal Lead “Crimp City”',
    )
    expect(climbWords({ ...climb, discipline: 'TR' })).toBe('V4 teal Top rope')
    expect(climbWords({ ...climb, discipline: 'AUT' })).toBe('V4 teal Auto-belay')
  })

  test("colour words have a colour whatever their case; a climb's own colour comes first", () => {
    expect(colourHex(' Teal ')).toBe('#14998f')
    expect(colourHex('mauve')).toBeNull()
    expect(climbHex({ color_hex: '#123456', hold_color: 'teal' })).toBe('#123456')
    expect(climbHex({ color_hex: null, hold_color: 'Teal' })).toBe('#14998f')
    expect(climbHex({ color_hex: null, hold_color: 'mauve' })).toBeNull()
  })

  test('how long a climb is up, and a section in a line', () => {
    expect(upWords({ set_date: '2026-12-02', days_up: 0 })).toBe('Set today')
    expect(upWords({ set_date: '2026-12-01', days_up: 1 })).toBe('Set 1 Dec · 1 day up')
    expect(upWords({ set_date: '2026-11-02', days_up: 30 })).toBe('Set 2 Nov · 30 days up')
    expect(sectionFacts({ climbs_up: 14, last_reset_date: '2026-10-12' })).toBe('14 up · reset 12 Oct')
    expect(sectionFacts({ climbs_up: 0, last_reset_date: null })).toBe('No climbs up · never reset')
  })

  test('a reset says how many climbs come down', () => {
    expect(resetQuestion({ name: 'The Cave' }, 14)).toBe(
      'Reset The Cave? All 14 climbs up in it come down today.',
    )
    expect(resetQuestion({ name: 'The Cave' }, 1)).toBe(
      'Reset The Cave? The 1 climb up in it comes down today.',
    )
    expect(resetQuestion({ name: 'The Cave' }, 0)).toBe(
      'Reset The Cave? No climbs are up in it: nothing comes down, and today is recorded as its reset.',
    )
  })

  test("the sections for boulders or ropes, mixed ones in both, in the gym's order", () => {
    const section = (id: number, name: string, discipline: 'BOU' | 'ROP' | 'MIX', sort_order: number) => ({
      id,
      url: '',
      gym_id: 1,
      name,
      discipline,
      sort_order,
      description: '',
      is_active: true,
      climbs_up: 0,
      last_reset_date: null,
      created_at: '2026-11-01T17:00:00Z',
      updated_at: '2026-11-01T17:00:00Z',
    })
    const all = [
      section(1, 'Lead Wall', 'ROP', 1),
      section(2, 'The Prow', 'MIX', 2),
      section(3, 'The Cave', 'BOU', 1),
      { ...section(4, 'Old Slab', 'BOU', 0), is_active: false },
    ]
    expect(sectionsFor('BOU', all).map((s) => s.name)).toEqual(['The Cave', 'The Prow'])
    expect(sectionsFor('ROP', all).map((s) => s.name)).toEqual(['Lead Wall', 'The Prow'])
  })

  test('the grade curve: the figures the chart is given, its table and its line', () => {
    expect(gradeCurveFigures(stats)).toEqual({
      bucketHeading: 'Grade',
      bucketColumn: 'grade',
      buckets: ['V0', 'V1', 'V2', 'V3'],
      series: [
        { id: 'up', label: 'Up now', unit: 'count', values: [4, 1, 2, 2] },
        { id: 'target', label: 'Target', unit: 'count', values: [3, 4, 4, null] },
      ],
      covers: '9 boulders up',
    })
    expect(curveRows(stats)).toEqual([
      { grade: 'V0', up: '4 of 3', gap: '1 over' },
      { grade: 'V1', up: '1 of 4', gap: '3 short' },
      { grade: 'V2', up: '2 of 4', gap: '2 short' },
      { grade: 'V3', up: '2', gap: '' },
    ])
    expect(curveSummary(stats)).toBe('9 boulders up of 11 aimed for; most short: V1 by 3, V2 by 2.')
    expect(curveSummary({ ...stats, climbs_up: 1, by_grade: [grade(0, 'V0', 1, 1)] })).toBe(
      '1 boulder up of 1 aimed for; every grade is at its target or over.',
    )
    expect(curveSummary({ ...stats, discipline: 'ROP', by_grade: [] })).toBe('No grades for ropes yet.')
    expect(curveSummary({ ...stats, by_grade: [grade(0, 'V0', 9, null)] })).toBe(
      '9 boulders up; no grade has a target.',
    )
  })

  test("a refusal of the form's fields in the form's words", () => {
    expect(
      refusalLines({
        setter_ids: ['This list may not be empty.'],
        hold_color: ['This field may not be blank.'],
      }),
    ).toEqual(['Setters: This list may not be empty.', 'Colour: This field may not be blank.'])
    expect(refusalLines({ non_field_errors: ['This climb has already been stripped.'] })).toEqual([
      'This climb has already been stripped.',
    ])
    expect(refusalLines({ detail: 'You do not have permission to perform this action.' })).toEqual([
      'You do not have permission to perform this action.',
    ])
  })
})

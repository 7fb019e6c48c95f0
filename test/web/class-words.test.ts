import { describe, expect, test } from 'bun:test'
import {
  addDays,
  answerWords,
  dayHeading,
  dayLabel,
  pickerDays,
  spotsWords,
} from '../../src/web/screens/classes/class-words.ts'
import { fieldLabel } from '../../src/web/plain-words.ts'

const event = { is_cancelled: false, spots_left: 3, capacity: 12, num_reservations: 9, num_waitlisted: 0 }

describe("the Classes screen's words", () => {
  test('spots: left of the capacity, left, booked, full, the waitlist after, cancelled', () => {
    expect(spotsWords(event)).toBe('3 of 12 left')
    expect(spotsWords({ ...event, capacity: null })).toBe('3 left')
    expect(spotsWords({ ...event, spots_left: null, capacity: null })).toBe('9 booked')
    expect(spotsWords({ ...event, spots_left: 0 })).toBe('Full')
    expect(spotsWords({ ...event, spots_left: 0, num_waitlisted: 2 })).toBe('Full · Waitlist 2')
    expect(spotsWords({ ...event, num_waitlisted: 1 })).toBe('3 of 12 left · Waitlist 1')
    expect(spotsWords({ ...event, is_cancelled: true, spots_left: 0 })).toBe('Cancelled')
  })

  test('days: the picker’s week, across a month and a leap day', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(pickerDays('2026-12-29')).toEqual([
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
      '2027-01-04',
    ])
    expect(dayLabel('2026-12-29', '2026-12-29')).toBe('Today')
    expect(dayLabel('2026-12-30', '2026-12-29')).toBe('Tomorrow')
    expect(dayLabel('2027-01-01', '2026-12-29')).toBe('Fri 1 Jan')
    expect(dayHeading('2027-01-01', '2026-12-29')).toBe('Friday 1 January')
    expect(dayHeading('2026-12-30', '2026-12-29')).toBe('Tomorrow')
  })

  test('answers: yes and no for true and false, a question mark or colon kept', () => {
    const answer = (question_text: string, value: string | boolean) =>
      answerWords({ question_id: 1, question_text, answer: value })
    expect(answer('Have you belayed before?', true)).toBe('Have you belayed before? Yes')
    expect(answer('Top-rope certified', false)).toBe('Top-rope certified: No')
    expect(answer('Harness size:', 'M')).toBe('Harness size: M')
    expect(fieldLabel('event_id')).toBe('Class')
  })
})

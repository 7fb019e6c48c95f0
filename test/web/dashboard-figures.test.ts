import { describe, expect, test } from 'bun:test'
import {
  DASHBOARD_CHARTS,
  figuresCsv,
  figureText,
  type MetricsResult,
} from '../../src/web/screens/dashboard/figures.ts'

const chart = (id: string) => DASHBOARD_CHARTS.find((c) => c.id === id)!
const byHour = chart('today-by-hour')

/** The metrics query's answer over daily buckets from `start`, each hour's values given per day. */
function hourlyAnswer(start: string, days: number, hours: Record<string, number[]> = {}): MetricsResult {
  const dates = Array.from({ length: days }, (_, i) =>
    new Date(Date.parse(`${start}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
  )
  return {
    interval: 'daily',
    start_date: dates[0]!,
    end_date: dates.at(-1)!,
    time_zone: 'America/Denver',
    buckets: dates.map((date) => ({ start_date: date, end_date: date })),
    series: Array.from({ length: 24 }, (_, h) => {
      const id = `h${String(h).padStart(2, '0')}`
      return { id, unit: 'count' as const, values: hours[id] ?? dates.map(() => 0) }
    }),
  }
}

describe('today by hour', () => {
  test('asks for each hour on the weekday of the day shown, the last hour running to midnight', () => {
    const { metrics } = byHour.query({ start: '2026-11-10', end: '2026-11-24' })
    expect(metrics).toHaveLength(24)
    expect(metrics[0]).toEqual({
      id: 'h00',
      type: 'check_in_count',
      filters: { time_of_day_start: '00:00', time_of_day_end: '01:00', day_of_week: ['tuesday'] },
    })
    expect(metrics[23]!.filters).toEqual({ time_of_day_start: '23:00', day_of_week: ['tuesday'] })
  })

  test('averages the earlier same weekdays of the range to a tenth, leaving the other days out', () => {
    // Tuesdays 10, 17 and 24 November: 2 and 3 check-ins at five on the earlier two, 4 on the day
    // shown; the days between are zero buckets, not days of the average.
    const at17 = Array.from({ length: 15 }, () => 0)
    ;[at17[0], at17[7], at17[14]] = [2, 3, 4]
    const at09 = Array.from({ length: 15 }, () => 0)
    at09[7] = 1
    const figures = byHour.figures(hourlyAnswer('2026-11-10', 15, { h17: at17, h09: at09 }), {
      start: '2026-11-10',
      end: '2026-11-24',
    })
    expect(figures.series.map((s) => s.label)).toEqual(['2026-11-24', 'Average of 2 Tuesdays'])
    expect(figures.series[0]!.values[17]).toBe(4)
    expect(figures.series[1]!.values[17]).toBe(2.5)
    expect(figures.series[1]!.values[9]).toBe(0.5)
    expect(figures.covers).toBe('Tuesday 2026-11-24 by hour, against the 2 Tuesdays from 2026-11-10 on')
  })

  test('a range without an earlier same weekday shows the day alone, and says so', () => {
    const figures = byHour.figures(hourlyAnswer('2026-11-21', 4), { start: '2026-11-21', end: '2026-11-24' })
    expect(figures.series.map((s) => s.id)).toEqual(['day'])
    expect(figures.covers).toBe('Tuesday 2026-11-24 by hour, against no earlier Tuesday in the range')
  })
})

test.each([
  ['money to the cent, with thousands', 1234.5, 'currency', '1,234.50'],
  ['a refund-heavy week below zero', -12, 'currency', '-12.00'],
  ['a fraction as a percentage to a tenth', 6 / 7, 'percent', '85.7%'],
  ['a count as it is', 42, 'count', '42'],
  ['no value yet', null, 'percent', '—'],
] as const)('the table writes %s', (_, value, unit, text) => {
  expect(figureText(value, unit)).toBe(text)
})

test('the CSV: the bucket column, a column per series by id, money to the cent, an empty cell for no value', () => {
  const csv = figuresCsv({
    bucketHeading: 'Month',
    bucketColumn: 'month',
    buckets: ['2026-10', '2026-11'],
    series: [
      { id: 'net', label: 'Net', unit: 'currency', values: [1500, 12.5] },
      { id: 'retention', label: 'Retention', unit: 'percent', values: [0.75, null] },
    ],
    covers: '2026-10-01 to 2026-11-30',
  })
  expect(csv).toBe('month,net,retention\r\n2026-10,1500.00,0.75\r\n2026-11,12.50,\r\n')
})

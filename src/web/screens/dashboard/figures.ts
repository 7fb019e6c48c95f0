/**
 * The dashboard's charts: what each asks POST /api/metrics/query/ for, over which range by default,
 * and how the answer becomes the figures the chart draws, its table lists and its CSV holds. The
 * API computes every figure; the one thing worked out here is the average hour of earlier same
 * weekdays, which the API has no metric for.
 */
import type { components } from '../../api-schema.ts'

export type MetricUnit = Answer['series'][number]['unit']

/** A metric of a query, as the API takes it. */
interface MetricRequest {
  id: string
  type: string
  filters?: Record<string, unknown>
}

type Interval = 'daily' | 'weekly' | 'monthly'

export interface MetricsQuery {
  interval: Interval
  start_date: string
  end_date: string
  metrics: MetricRequest[]
}

/** 200 from the metrics query: one dense series per metric over buckets the range was widened to. */
export type MetricsResult = Omit<Answer, 'series'> & {
  /** What the figures read of each series. */
  series: Pick<Answer['series'][number], 'id' | 'unit' | 'values'>[]
}

type Answer = components['schemas']['MetricsResult']

/** A chart's days, both included, organization-local YYYY-MM-DD. */
export interface DateRange {
  start: string
  end: string
}

export interface FigureSeries {
  /** Its column in the CSV. */
  id: string
  /** Its name in the legend and the table. */
  label: string
  unit: MetricUnit
  values: (number | null)[]
}

/** What one chart shows: a row per bucket and a column per series, whichever way it is drawn. */
export interface Figures {
  /** The table's first column and the CSV's, e.g. `Day` and `date`. */
  bucketHeading: string
  bucketColumn: string
  /** Each bucket as the table and the CSV write it (a date, a month, an hour). */
  buckets: string[]
  series: FigureSeries[]
  /** The days the figures cover, in words (the API widens a range to whole weeks or months). */
  covers: string
}

export interface ChartDefinition {
  /** Stable: the CSV's file name starts with it. */
  id: string
  title: string
  /** The first series as bars rather than a line. */
  bars?: boolean
  /** The range picker's two labels. */
  rangeLabels: [string, string]
  defaultRange(today: string): DateRange
  query(range: DateRange): MetricsQuery
  figures(result: MetricsResult, range: DateRange): Figures
}

const DAY_MS = 86_400_000
const msOf = (date: string) => Date.parse(`${date}T00:00:00Z`)

/** The calendar date `days` after `date` (before, when negative). */
export const addDays = (date: string, days: number): string =>
  new Date(msOf(date) + days * DAY_MS).toISOString().slice(0, 10)

/** The date on the calendar in `timeZone` now: the organization's today as the API reads it. */
export const todayIn = (timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  )

/** In the order the API's day_of_week filter names them, Sunday first as Date counts them. */
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const
const weekdayOf = (date: string) => WEEKDAYS[new Date(msOf(date)).getUTCDay()]!
const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1)

/** A series of the answer by its id: every chart asks for its own ids, so it is always there. */
function seriesOf(result: MetricsResult, id: string) {
  const series = result.series.find((s) => s.id === id)
  if (series === undefined) throw new Error(`the metrics query answered without the series ${id}`)
  return series
}

const startDates = (result: MetricsResult) => result.buckets.map((b) => b.start_date)
const covering = (result: MetricsResult) => `${result.start_date} to ${result.end_date}`

/** Series straight from the answer, in the order given, each under its label. */
const seriesFromResult = (result: MetricsResult, labels: [id: string, label: string][]): FigureSeries[] =>
  labels.map(([id, label]) => {
    const { unit, values } = seriesOf(result, id)
    return { id, label, unit, values }
  })

const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'))

/** The average of earlier days is shown to a tenth: the table, the chart and the CSV agree on it. */
const toTenth = (value: number) => Math.round(value * 10) / 10

/**
 * Today by hour against the same weekday's average. The API counts check-ins in a daily time-of-day
 * window on chosen weekdays, so one query asks for each hour on the range's weekday of its last day:
 * that day's bucket is the day itself, and the earlier buckets of the same weekday are what the
 * average is taken over (the other days of the range are zero buckets, left out).
 */
const todayByHour: ChartDefinition = {
  id: 'today-by-hour',
  title: 'Today by hour',
  bars: true,
  rangeLabels: ['Average from', 'Day'],
  defaultRange: (today) => ({ start: addDays(today, -8 * 7), end: today }),
  query: ({ start, end }) => ({
    interval: 'daily',
    start_date: start,
    end_date: end,
    metrics: HOURS.map((hour, h) => ({
      id: `h${hour}`,
      type: 'check_in_count',
      filters: {
        time_of_day_start: `${hour}:00`,
        // The last hour runs to midnight: a window without an end does.
        ...(h < 23 && { time_of_day_end: `${HOURS[h + 1]}:00` }),
        day_of_week: [weekdayOf(end)],
      },
    })),
  }),
  figures(result, { end }) {
    const weekday = weekdayOf(end)
    const days = startDates(result)
    const last = days.indexOf(end)
    const earlier = days.flatMap((day, i) => (i < last && weekdayOf(day) === weekday ? [i] : []))
    const hourly = HOURS.map((hour) => seriesOf(result, `h${hour}`).values)
    const series: FigureSeries[] = [
      { id: 'day', label: end, unit: 'count', values: hourly.map((values) => values[last] ?? 0) },
    ]
    const plural = earlier.length === 1 ? '' : 's'
    if (earlier.length > 0)
      series.push({
        id: 'weekday_average',
        label: `Average of ${earlier.length} ${capitalised(weekday)}${plural}`,
        unit: 'count',
        values: hourly.map((values) =>
          toTenth(earlier.reduce((sum, i) => sum + (values[i] ?? 0), 0) / earlier.length),
        ),
      })
    const before =
      earlier.length === 0
        ? `no earlier ${capitalised(weekday)} in the range`
        : `the ${earlier.length} ${capitalised(weekday)}${plural} from ${days[earlier[0]!]} on`
    return {
      bucketHeading: 'Hour',
      bucketColumn: 'hour',
      buckets: HOURS.map((hour) => `${hour}:00`),
      series,
      covers: `${capitalised(weekday)} ${end} by hour, against ${before}`,
    }
  },
}

/** A chart of one query over one interval, its series taken as the API answers them. */
function seriesChart(chart: {
  id: string
  title: string
  bars?: boolean
  interval: Interval
  bucketHeading: string
  bucketColumn: string
  /** The range it opens with ends today and starts this many days before. */
  daysBefore: number
  metrics: (MetricRequest & { label: string })[]
  /** A monthly bucket is written as its month. */
  bucketText?: (startDate: string) => string
}): ChartDefinition {
  return {
    id: chart.id,
    title: chart.title,
    bars: chart.bars,
    rangeLabels: ['From', 'To'],
    defaultRange: (today) => ({ start: addDays(today, -chart.daysBefore), end: today }),
    query: ({ start, end }) => ({
      interval: chart.interval,
      start_date: start,
      end_date: end,
      metrics: chart.metrics.map(({ id, type, filters }) => ({ id, type, filters })),
    }),
    figures: (result) => ({
      bucketHeading: chart.bucketHeading,
      bucketColumn: chart.bucketColumn,
      buckets: startDates(result).map(chart.bucketText ?? ((day) => day)),
      series: seriesFromResult(
        result,
        chart.metrics.map(({ id, label }) => [id, label]),
      ),
      covers: covering(result),
    }),
  }
}

/** The dashboard's charts, in the page's order. */
export const DASHBOARD_CHARTS: ChartDefinition[] = [
  seriesChart({
    id: 'check-ins-per-day',
    title: 'Check-ins per day',
    bars: true,
    interval: 'daily',
    bucketHeading: 'Day',
    bucketColumn: 'date',
    daysBefore: 29,
    metrics: [{ id: 'check_ins', type: 'check_in_count', label: 'Check-ins' }],
  }),
  todayByHour,
  seriesChart({
    id: 'revenue-per-week',
    title: 'Revenue per week',
    interval: 'weekly',
    bucketHeading: 'Week from',
    bucketColumn: 'week_start',
    // Today's week and the 11 before it.
    daysBefore: 11 * 7,
    metrics: [
      { id: 'net', type: 'revenue', filters: { product_type: 'all' }, label: 'Net (after refunds)' },
      {
        id: 'gross',
        type: 'revenue',
        filters: { product_type: 'all', revenue_calculation: 'gross' },
        label: 'Gross',
      },
    ],
  }),
  seriesChart({
    id: 'active-memberships',
    title: 'Active memberships',
    interval: 'weekly',
    bucketHeading: 'Week from',
    bucketColumn: 'week_start',
    daysBefore: 365,
    // A stock: each week shows the memberships active the day before it began.
    metrics: [{ id: 'active_memberships', type: 'membership_count', label: 'Active memberships' }],
  }),
  seriesChart({
    id: 'new-customers-and-retention',
    title: 'New customers and retention',
    bars: true,
    interval: 'monthly',
    bucketHeading: 'Month',
    bucketColumn: 'month',
    daysBefore: 365,
    bucketText: (day) => day.slice(0, 7),
    metrics: [
      { id: 'new_customers', type: 'new_customer_count', label: 'New customers' },
      {
        id: 'retention',
        type: 'customer_retention',
        filters: { component: 'rate' },
        label: 'Came back within 90 days',
      },
    ],
  }),
]

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/**
 * A figure as the table shows it: money to the cent, a fraction as a percentage to a tenth, and a
 * dash where the API has no value yet (retention settles 90 days after a first visit).
 */
export function figureText(value: number | null, unit: MetricUnit): string {
  if (value === null) return '—'
  if (unit === 'currency') return money.format(value)
  if (unit === 'percent') return `${(value * 100).toFixed(1)}%`
  return String(value)
}

/**
 * The figures as CSV: the bucket column, then a column per series by its id, a row per bucket;
 * money to the cent, fractions as the API gives them, an empty cell where there is no value.
 */
export function figuresCsv(figures: Figures): string {
  const header = [figures.bucketColumn, ...figures.series.map((s) => s.id)].join(',')
  const rows = figures.buckets.map((bucket, i) =>
    [
      bucket,
      ...figures.series.map(({ values, unit }) => {
        const value = values[i] ?? null
        if (value === null) return ''
        return unit === 'currency' ? value.toFixed(2) : String(value)
      }),
    ].join(','),
  )
  return `${[header, ...rows].join('\r\n')}\r\n`
}

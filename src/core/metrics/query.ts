import type { Db } from '../../db/connection.ts'
import { addDays, isIsoDate } from '../../lib/local-time.ts'
import { INTERVALS, planBuckets, type Bucket, type BucketPlan, type Interval } from './buckets.ts'
import type { MetricDefinition, MetricUnit } from './definition.ts'
import { FilterReader } from './filter-reader.ts'
import { refuse } from './refusal.ts'
import { METRIC_TYPES } from './registry.ts'

export const MAX_METRICS = 100
/** Without a start_date, a query reads this many days before its end. */
const DEFAULT_DAYS_BEFORE_END = 31

export interface MetricSeries {
  id: string
  type: string
  unit: MetricUnit
  additive: boolean
  values: (number | null)[]
  total: number | null
}

export interface MetricsResult {
  interval: Interval
  start_date: string
  end_date: string
  time_zone: string
  buckets: Bucket[]
  series: MetricSeries[]
}

interface PlannedMetric {
  id: string
  definition: MetricDefinition<unknown>
  filters: unknown
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Runs a metrics query: every metric's series over the same calendar-aligned buckets of the
 * organization's zone. The whole request is checked before any statement runs; the first problem
 * refuses it (MetricsQueryRefused). The statements run on the reader, off the thread the door is
 * answered on.
 */
export async function runMetricsQuery(
  deps: { db: Db; reader: Db },
  body: unknown,
  organization: { timeZone: string; today: string },
): Promise<MetricsResult> {
  if (!isObject(body)) refuse('body', 'must be a JSON object')
  const plan = readRange(body, organization)
  const metrics = readMetrics(body.metrics, plan)
  const ctx = { reader: deps.reader, db: deps.db, plan }
  const runOne = async ({ id, definition, filters }: (typeof metrics)[number]): Promise<MetricSeries> => {
    const { unit, additive } = definition.shape(filters)
    const values = await definition.run(ctx, filters)
    if (values.length !== plan.buckets.length)
      throw new Error(`${definition.type} gave ${values.length} values for ${plan.buckets.length} buckets`)
    return { id, type: definition.type, unit, additive, ...presented(values, unit, additive) }
  }
  // Each metric builds its statements on this thread, the one the door is answered on. Started all
  // at once, eleven of them hold it for one long turn; started one per turn, a scan that arrives
  // meanwhile waits for one metric's statements at most. The reader runs them in turn either way.
  const started: Promise<MetricSeries>[] = []
  for (const metric of metrics) {
    const running = runOne(metric)
    // Promise.all below reports a failure; until it is reached, a failure must not count as unhandled.
    running.catch(() => {})
    started.push(running)
    await new Promise((resolve) => setImmediate(resolve))
  }
  const series = await Promise.all(started)
  return {
    interval: plan.interval,
    start_date: plan.firstDay,
    end_date: plan.lastDay,
    time_zone: plan.timeZone,
    buckets: plan.buckets,
    series,
  }
}

/** Currency comes from the engines as whole cents, so the total adds exact cents before it is shown. */
function presented(values: (number | null)[], unit: MetricUnit, additive: boolean) {
  const present = values.filter((value): value is number => value !== null)
  const sum = present.reduce((a, b) => a + b, 0)
  const total = additive && present.length > 0 ? sum : null
  if (unit !== 'currency') return { values, total }
  const amount = (cents: number) => Math.round(cents) / 100
  return {
    values: values.map((v) => (v === null ? null : amount(v))),
    total: total === null ? null : amount(total),
  }
}

function readDate(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !isIsoDate(value)) refuse(key, 'must be a date as YYYY-MM-DD')
  return value
}

/** The buckets a request's interval, start_date and end_date ask for (the query's, or the add-on names'). */
export function readRange(
  body: Record<string, unknown>,
  organization: { timeZone: string; today: string },
): BucketPlan {
  const interval = body.interval ?? 'daily'
  if (typeof interval !== 'string' || !INTERVALS.includes(interval as Interval))
    refuse('interval', `must be one of ${INTERVALS.join(', ')}`)
  const endDate = readDate(body, 'end_date') ?? organization.today
  const startDate = readDate(body, 'start_date') ?? addDays(endDate, -DEFAULT_DAYS_BEFORE_END)
  if (startDate > endDate) refuse('start_date', `may not be after end_date (${endDate})`)
  return planBuckets(interval as Interval, startDate, endDate, organization.timeZone, organization.today)
}

function readMetrics(metrics: unknown, plan: BucketPlan): PlannedMetric[] {
  if (metrics === undefined || metrics === null) refuse('metrics', 'is required')
  if (!Array.isArray(metrics)) refuse('metrics', 'must be a list')
  if (metrics.length === 0) refuse('metrics', 'may not be an empty list')
  if (metrics.length > MAX_METRICS) refuse('metrics', `may hold at most ${MAX_METRICS} metrics`)
  const ids = new Set<string>()
  return metrics.map((metric, i): PlannedMetric => {
    const at = `metrics[${i}]`
    if (!isObject(metric)) refuse(at, 'must be an object')
    const { id, type, filters = {} } = metric
    if (typeof id !== 'string' || id.trim() === '') refuse(`${at}.id`, 'must be a non-empty string')
    if (ids.has(id)) refuse(`${at}.id`, `"${id}" is the id of an earlier metric`)
    ids.add(id)
    if (typeof type !== 'string' || type === '') refuse(`${at}.type`, 'is required')
    const definition = METRIC_TYPES.get(type)
    if (!definition)
      refuse(`${at}.type`, `"${type}" is not a metric type (${[...METRIC_TYPES.keys()].join(', ')})`)
    const reader = new FilterReader(
      filters === null ? {} : isObject(filters) ? filters : refuse(`${at}.filters`, 'must be an object'),
      `${at}.filters`,
      type,
    )
    const read = definition.readFilters(reader, plan)
    reader.finish()
    return { id, definition, filters: read }
  })
}

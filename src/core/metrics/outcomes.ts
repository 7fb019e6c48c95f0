import { isSettled, type BucketPlan } from './buckets.ts'
import type { FilterReader } from './filter-reader.ts'

/**
 * Metrics that follow people for a while after something they did (retention: came back within 90
 * days; conversion: became a member within a window) split each bucket's people in two. A bucket
 * has values only once its whole interval is older than the follow-up: before that every component
 * is null, not 0, because the outcome is not known yet.
 */
export const OUTCOME_COMPONENTS = ['rate', 'yes', 'no'] as const
export type OutcomeComponent = (typeof OUTCOME_COMPONENTS)[number]

/**
 * Reads `component` with the metric's own words for the two outcomes, e.g.
 * { rate: 'rate', yes: 'retained', no: 'lost' }: returns which of the three is asked.
 */
export function readOutcomeComponent(
  filters: FilterReader,
  words: { yes: string; no: string },
): OutcomeComponent {
  const asked = filters.choice('component', ['rate', words.yes, words.no], 'rate')
  return asked === 'rate' ? 'rate' : asked === words.yes ? 'yes' : 'no'
}

/** A rate is a fraction 0-1, not additive; the two counts are additive. */
export const outcomeShape = (component: OutcomeComponent) =>
  component === 'rate'
    ? ({ unit: 'percent', additive: false } as const)
    : ({ unit: 'count', additive: true } as const)

/**
 * One value per bucket from per-bucket counts of the two outcomes: null while a bucket is not
 * settled (`followUpDays` after its last day is not yet past today), and a rate of null when a
 * settled bucket has nobody in it.
 */
export function outcomeValues(
  plan: BucketPlan,
  rows: readonly { bucket: number; yes: number; no: number }[],
  component: OutcomeComponent,
  followUpDays: number,
): (number | null)[] {
  const counts = plan.buckets.map(() => ({ yes: 0, no: 0 }))
  for (const row of rows) if (counts[row.bucket]) counts[row.bucket] = { yes: row.yes, no: row.no }
  return plan.buckets.map((bucket, i) => {
    if (!isSettled(bucket, plan.today, followUpDays)) return null
    const { yes, no } = counts[i]!
    if (component === 'yes') return yes
    if (component === 'no') return no
    return yes + no === 0 ? null : yes / (yes + no)
  })
}

import type { Db } from '../../db/connection.ts'
import type { BucketPlan } from './buckets.ts'
import type { FilterReader } from './filter-reader.ts'

/** What a series' values are: money (whole cents from `run`, 2-decimal amounts in the response), counts, or fractions 0-1. */
export type MetricUnit = 'currency' | 'count' | 'percent'

export interface MetricShape {
  unit: MetricUnit
  /** Whether summing buckets means something (a total is given only then). */
  additive: boolean
}

/** What a metric's statements run against. */
export interface MetricContext {
  /** The read-only connection on the worker thread: every statement of a metric runs here. */
  reader: Db
  /** The writer, only for bringing the tables kept for the metrics current before they are read. */
  db: Db
  plan: BucketPlan
}

/**
 * One metric type: how it reads its filters and how it computes its series. `readFilters` refuses
 * bad input through the reader (and must read every key it accepts); `run` returns exactly one
 * value per bucket of the plan, in bucket order, null only where the metric has no value yet.
 */
export interface MetricDefinition<F> {
  type: string
  readFilters(filters: FilterReader, plan: BucketPlan): F
  shape(filters: F): MetricShape
  run(ctx: MetricContext, filters: F): Promise<(number | null)[]>
}

/** Declares a metric type with its filters' type inferred once, from readFilters. */
export const defineMetric = <F>(definition: MetricDefinition<F>): MetricDefinition<F> => definition

import { t } from 'elysia'

const date = (description: string) => t.String({ format: 'date', description })

/** A metric of the query: documentation of the body runMetricsQuery reads (it checks it itself). */
const MetricRequest = t.Object({
  id: t.String({ minLength: 1, description: 'Echoed as the series id; unique within the request' }),
  type: t.String({ description: 'The metric type, e.g. revenue, check_in_count, membership_count' }),
  filters: t.Optional(
    t.Record(t.String(), t.Unknown(), { description: "The type's filters; an unknown key is refused" }),
  ),
})

export const MetricsQuery = t.Object({
  interval: t.Optional(
    t.Union(
      [
        t.Literal('daily'),
        t.Literal('weekly'),
        t.Literal('monthly'),
        t.Literal('quarterly'),
        t.Literal('yearly'),
      ],
      {
        default: 'daily',
      },
    ),
  ),
  start_date: t.Optional(date('First day, organization-local; default 31 days before end_date')),
  end_date: t.Optional(date('Last day, inclusive, organization-local; default today')),
  metrics: t.Array(MetricRequest, { minItems: 1, maxItems: 100 }),
})

/** GET /api/metrics/membership-add-on-names/: a query's range, checked by the engine as the query's is. */
export const AddOnNamesQuery = t.Object({
  interval: t.Optional(t.String({ description: "As the query's; default daily" })),
  start_date: t.Optional(
    date('With end_date, the range a query reads, widened to whole buckets and the lead-in day'),
  ),
  end_date: t.Optional(
    date("Default today when start_date is given; neither date: all of the rollup's history"),
  ),
})

const Bucket = t.Object({ start_date: t.String({ format: 'date' }), end_date: t.String({ format: 'date' }) })

const Series = t.Object({
  id: t.String(),
  type: t.String(),
  unit: t.Union([t.Literal('currency'), t.Literal('count'), t.Literal('percent')]),
  additive: t.Boolean({ description: 'Whether summing buckets is meaningful' }),
  values: t.Array(t.Union([t.Number(), t.Null()]), { description: 'One per bucket, in bucket order' }),
  total: t.Union([t.Number(), t.Null()], {
    description: 'Sum of the non-null values of an additive series; null otherwise',
  }),
})

export const MetricsResultOut = t.Object({
  interval: t.String(),
  start_date: t.String({ format: 'date', description: 'The first day of the first bucket' }),
  end_date: t.String({ format: 'date', description: 'The last day of the last bucket' }),
  time_zone: t.String(),
  buckets: t.Array(Bucket),
  series: t.Array(Series),
})

/** A refused query: one sentence naming the metric and filter, as a bare JSON string. */
export const MetricsRefusal = t.String({
  description: 'What is wrong and where, e.g. "metrics[2].filters.product_ids: may not be an empty list"',
})

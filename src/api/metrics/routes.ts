import { Elysia, t } from 'elysia'
import { listMembershipAddOnNames } from '../../core/metrics/membership-add-on-names.ts'
import { MetricsQueryRefused } from '../../core/metrics/refusal.ts'
import { runMetricsQuery } from '../../core/metrics/query.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { UnreadableBody } from '../../http/body.ts'
import { docs, named } from '../../http/docs.ts'
import { ApiError } from '../../http/errors.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { localDate } from '../../lib/local-time.ts'
import { loadOrganization } from '../organization/queries.ts'
import { AddOnNamesQuery, MetricsQuery, MetricsRefusal, MetricsResultOut } from './schema.ts'

const tag = 'Metrics'

/** How the query is read and answered, as the operation's description says it. */
const QUERY_RULES = [
  [
    "Answers one dense series per metric over buckets shared by all of them; each metric's type,",
    "filters and unit are described under `type` in the request body's schema. The whole request is",
    'checked before any statement runs; the first problem is a 400 whose body is a bare JSON string',
    'led by where it is (`"metrics[0].filters.product_ids: may not be an empty list"`). Unknown',
    'top-level keys are ignored, as DRF ignores unknown fields; a body that is not a JSON object gets',
    "DRF's answer, as on every endpoint.",
  ],
  [
    "**Buckets** are calendar-aligned in the organization's zone (weeks Monday to Sunday; months,",
    "quarters and years from their first day): the answer's `start_date` and `end_date` are widened",
    'to whole buckets. Buckets after today read 0, or `null` for the rates and outcomes not known yet',
    '(retention, conversion).',
  ],
  [
    '**Values**: `percent` values are fractions (0 to 1), unrounded; `currency` values are amounts',
    'rounded to cents per bucket; `total` adds the rounded buckets of an additive series and is',
    '`null` for one that is not additive.',
  ],
  [
    'The statements run on a reader thread, never the one that answers the door; a query that reads',
    'the membership rollup first brings it current.',
  ],
]
  .map((paragraph) => paragraph.join(' '))
  .join('\n\n')

/** How the add-on names' range is read, as the operation's description says it. */
const ADD_ON_NAMES_RULES = [
  'The names a dashboard offers to chart with `membership_count` `count_by` `add_ons`, one metric',
  'per name. It brings the membership rollup current first; its range is read as the query reads',
  'it (`interval`, `start_date`, `end_date`, with the same 400s), then widened to whole buckets with',
  'the lead-in day. `end_date` alone scopes it too (`start_date` then defaults to 31 days before);',
  'neither date lists every name the rollup has. Unknown parameters are ignored.',
].join(' ')

/** A refusal of the engine as the reporting endpoints answer it: 400 with the bare sentence. */
export async function answeringRefusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof MetricsQueryRefused) throw new ApiError(400, error.message)
    throw error
  }
}

/** The organization's zone and today, which every metrics date is read in. */
export async function organizationCalendar(deps: Deps): Promise<{ timeZone: string; today: string }> {
  const timeZone = (await loadOrganization(deps.db)).time_zone
  return { timeZone, today: localDate(deps.clock.now(), timeZone) }
}

/**
 * POST /api/metrics/query/: the reporting query, a read sent as POST so each metric's filters can
 * be structured. Its 400s are bare JSON strings, not DRF field errors, as the reference gives them.
 */
export const metricsRoutes = (deps: Deps) =>
  new Elysia().use(authenticated(deps)).post(
    '/api/metrics/query/',
    async ({ body }) => {
      // A body that is not a JSON object is refused by the body parser, in DRF's shape.
      if (body instanceof UnreadableBody) throw body.error
      return answeringRefusals(async () => runMetricsQuery(deps, body, await organizationCalendar(deps)))
    },
    {
      ...requires('can_access_reports'),
      ...docs({
        tag,
        summary: 'Query metrics: one dense series per metric over common calendar-aligned buckets',
        description: whoMay('can_access_reports', QUERY_RULES),
        body: named('MetricsQuery', MetricsQuery),
        ok: { status: 200, schema: named('MetricsResult', MetricsResultOut) },
        errorBodies: { 400: { description: 'The query was refused', json: MetricsRefusal } },
      }),
    },
  )

/**
 * GET /api/metrics/membership-add-on-names/: what a dashboard offers to chart with membership_count
 * count_by add_ons, one metric per name. Its range is read as the query reads it, refusals included.
 */
export const membershipAddOnNamesRoutes = (deps: Deps) =>
  new Elysia()
    .use(authenticated(deps))
    .get(
      '/api/metrics/membership-add-on-names/',
      async ({ query }) =>
        answeringRefusals(async () =>
          listMembershipAddOnNames(deps, query, await organizationCalendar(deps)),
        ),
      {
        ...requires('can_access_reports'),
        ...docs({
          tag,
          summary: 'The add-on names in the daily membership rollup, sorted',
          description: whoMay('can_access_reports', ADD_ON_NAMES_RULES),
          ok: { status: 200, schema: t.Array(t.String()) },
          query: AddOnNamesQuery,
          errorBodies: { 400: { description: 'The range was refused', json: MetricsRefusal } },
        }),
      },
    )

import { Elysia, t } from 'elysia'
import { listMembershipAddOnNames } from '../../core/metrics/membership-add-on-names.ts'
import { MetricsQueryRefused } from '../../core/metrics/refusal.ts'
import { runMetricsQuery } from '../../core/metrics/query.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { UnreadableBody } from '../../http/body.ts'
import { docs, named } from '../../http/docs.ts'
import { ApiError } from '../../http/errors.ts'
import { requires } from '../../http/permissions.ts'
import { localDate } from '../../lib/local-time.ts'
import { loadOrganization } from '../organization/queries.ts'
import { AddOnNamesQuery, MetricsQuery, MetricsRefusal, MetricsResultOut } from './schema.ts'

const tag = 'Metrics'

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
          ok: { status: 200, schema: t.Array(t.String()) },
          query: AddOnNamesQuery,
          errorBodies: { 400: { description: 'The range was refused', json: MetricsRefusal } },
        }),
      },
    )

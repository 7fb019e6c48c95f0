import { Elysia, t } from 'elysia'
import { reportMembersJson } from '../../core/reports/members-report.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named } from '../../http/docs.ts'
import { requires } from '../../http/permissions.ts'
import { readMembersQuery } from './rules.ts'
import { MemberQuery, MemberRowOut } from './schema.ts'
import { serializeMemberAddOn } from './serializer.ts'

/**
 * /api/members/: the members report. A plain JSON array, never paginated: one
 * request returns every matching member row. Read by any active staff user.
 */
export const memberRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/members' }).use(authenticated(deps)).get(
    '/',
    async ({ query, urls }) => {
      // Every query value is a string: MemberQuery is documentation, not handed to Elysia.
      const filters = await readMembersQuery(deps, query as Record<string, string | undefined>)
      const body = await reportMembersJson(deps, filters, {
        urls: {
          customers: urls.abs('/api/customers/'),
          customerMemberships: urls.abs('/api/customer-memberships/'),
          memberships: urls.abs('/api/memberships/'),
          gyms: urls.abs('/api/gyms/'),
        },
        addOnJson: (addOn) => JSON.stringify(serializeMemberAddOn(addOn)),
      })
      // The report's JSON as the database wrote it: sent as it is, never parsed here.
      return new Response(body, {
        headers: { 'content-type': 'application/json' },
      })
    },
    {
      ...requires('staff'),
      ...docs({
        tag: 'Members',
        summary: 'List member rows (not paginated)',
        ok: { status: 200, schema: t.Array(named('MemberRow', MemberRowOut)) },
        query: MemberQuery,
        filters: true,
      }),
    },
  )

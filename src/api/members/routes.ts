import { Elysia, t } from 'elysia'
import { reportMembersChunks, reportMembersJson } from '../../core/reports/members-report.ts'
import type { MemberAddOnRow } from '../../core/reports/queries.ts'
import {
  contentDispositionHeader,
  CSV_CHUNK_ROWS,
  csvBody,
  csvFormatParam,
  csvResponse,
  csvRules,
  wantsCsv,
} from '../../http/csv-export.ts'
import { csvColumns } from '../../lib/csv-write.ts'
import { organizationToday } from '../organization/queries.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named } from '../../http/docs.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { readMembersQuery } from './rules.ts'
import { BILLING_FIELDS, MemberQuery, MemberRowOut } from './schema.ts'
import { serializeMemberAddOn } from './serializer.ts'

/** The report's rows, order, filters and billing fields, as the operation's description says them. */
const REPORT_RULES = [
  [
    'One row per member of each membership, as a plain JSON array: never paginated, one request',
    'answers every matching row. Ordered by last then first name (ignoring case), then membership',
    'and customer id. `email` and `owner_email` are `""` when there is none.',
  ],
  [
    'Filters: an empty value means "not given"; a 400 lists every failing filter. `status_in` tokens',
    'are `active`, `frozen` and `failed` (case matters), matched against the effective status (an',
    'individually frozen member of an active membership is `FRZ`); an unknown token or membership',
    'type id is `Select a valid choice. …`. `home_location_id` with an unknown id matches nothing.',
    '`add_on_name` is exact and case-sensitive. `has_payment_method=true` (any case) means with one,',
    'any other value without.',
  ],
  [
    'With `include_billing_info=true`, `billing_amount_per_member` divides by every member of the',
    "membership (frozen ones too). `last_invoice_*` describe the membership's newest invoice holding",
    'a `MIN` or `MRE` line for it (a freeze fee or another line for it does not count): its id, its',
    "total (every line's net and tax, whatever else it sold), its tax and its organization-local",
    'day; all `null` for a membership never invoiced. The newest is the one posted last: invoices',
    "are posted with the clock's time and never back-dated.",
  ],
]
  .map((paragraph) => paragraph.join(' '))
  .join('\n\n')

/** The CSV file's columns: the JSON's, the billing fields only with `include_billing_info=true`. */
const WITH_BILLING = csvColumns(MemberRowOut)
const WITHOUT_BILLING = csvColumns(MemberRowOut, BILLING_FIELDS)

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
      const writing = {
        urls: {
          customers: urls.abs('/api/customers/'),
          customerMemberships: urls.abs('/api/customer-memberships/'),
          memberships: urls.abs('/api/memberships/'),
          gyms: urls.abs('/api/gyms/'),
        },
        addOnJson: (addOn: MemberAddOnRow) => JSON.stringify(serializeMemberAddOn(addOn)),
      }
      if (wantsCsv(query))
        return csvResponse({
          collection: 'members',
          day: await organizationToday(deps),
          columns: filters.includeBillingInfo ? WITH_BILLING : WITHOUT_BILLING,
          chunks: reportMembersChunks(deps, filters, writing, CSV_CHUNK_ROWS),
          log: deps.log,
        })
      const body = await reportMembersJson(deps, filters, writing)
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
        description: whoMay('staff', `${REPORT_RULES}\n\n${csvRules()}`),
        ok: {
          status: 200,
          schema: t.Array(named('MemberRow', MemberRowOut)),
          csv: { body: csvBody(WITHOUT_BILLING, WITH_BILLING), header: contentDispositionHeader },
        },
        query: t.Object({ ...MemberQuery.properties, format: csvFormatParam }),
        filters: true,
      }),
    },
  )

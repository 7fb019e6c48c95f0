import { Elysia } from 'elysia'
import { checkInQuery, checkOut } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { organizationToday } from '../organization/queries.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { customerParent } from '../customer-records/collection.ts'
import { getCheckIn, listCheckIns, type CheckInRow } from './queries.ts'
import { CheckInOut, checkInFilters, NoBody } from './schema.ts'
import { serializeCheckIn } from './serializer.ts'

/** How the history reads, for both lists: times, durations and what the filters mean. */
const HISTORY_RULES = [
  'Newest first (with `has_checked_out=true`, newest check-out first). `check_in_datetime` and',
  "`check_out_datetime` are the gym's wall-clock time to the second, without offset;",
  '`visit_duration_minutes` is whole minutes, to now while still in. The day filters',
  "(`check_in_date_min`, `check_in_date_max`, `this_calendar_day`) are whole days of the organization's",
  'zone, inclusive, so an organization with gyms in several zones filters them all by one calendar;',
  '`entry_method` takes an exact code. Check-ins are made by the door endpoints, never here.',
].join(' ')
const ONE_CHECK_IN = "One check-in, as the list shows it; times are the gym's wall clock."

/**
 * /api/check-ins/ and each customer's /api/customers/<id>/check-ins/: read-only
 * history (the door endpoints create check-ins), newest first, plus the check-out/ action. Both
 * need can_manage_members.
 */
export const checkInRoutes = (deps: Deps) => {
  const serialize = (row: CheckInRow, urls: Parameters<typeof serializeCheckIn>[1]) =>
    serializeCheckIn(row, urls, deps.clock.now())
  const common = {
    tag: 'Check-ins',
    noun: 'check-in',
    read: 'can_manage_members',
    write: 'can_manage_members',
    output: CheckInOut,
    serialize,
  } as const
  return new Elysia()
    .use(
      collectionRoutes(deps, {
        ...common,
        path: '/api/check-ins',
        filters: checkInFilters({ customerId: true }),
        csv: { today: organizationToday },
        // The whole history's list on the reader (committed data, off the server's thread).
        list: async ({ deps }, filters) => listCheckIns(deps.reader, await checkInQuery(deps, filters, null)),
        get: ({ deps }, id) => getCheckIn(deps.db, id),
        descriptions: { list: HISTORY_RULES, read: ONE_CHECK_IN },
        actions: [
          {
            name: 'check-out',
            summary: 'Check out: record now as the check-out time (400 if already checked out)',
            description: [
              'Records now as the check-out time, once: a check-in already checked out is refused',
              '(`{"non_field_errors": ["This check-in is already checked out."]}`), also when two desks',
              'check the same visit out at once. No body, or `{}`.',
            ].join(' '),
            body: NoBody,
            run: ({ deps }, row) => checkOut(deps, row),
          },
        ],
      }),
    )
    .use(
      collectionRoutes(deps, {
        ...common,
        path: '/api/customers/:customer_id/check-ins',
        parent: customerParent,
        filters: checkInFilters({ customerId: false }),
        list: async ({ deps, parentId }, filters) =>
          listCheckIns(deps.db, await checkInQuery(deps, filters, parentId)),
        get: ({ deps, parentId }, id) => getCheckIn(deps.db, id, parentId),
        descriptions: {
          list: `The customer's own check-ins (404 for no such customer). ${HISTORY_RULES}`,
          read: `${ONE_CHECK_IN} Another customer's check-in is 404.`,
        },
      }),
    )
}

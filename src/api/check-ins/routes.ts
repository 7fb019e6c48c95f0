import { Elysia } from 'elysia'
import { checkInQuery, checkOut } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { customerParent } from '../customer-records/collection.ts'
import { getCheckIn, listCheckIns, type CheckInRow } from './queries.ts'
import { CheckInOut, checkInFilters, NoBody } from './schema.ts'
import { serializeCheckIn } from './serializer.ts'

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
        // The whole history's list on the reader (committed data, off the server's thread).
        list: async ({ deps }, filters) => listCheckIns(deps.reader, await checkInQuery(deps, filters, null)),
        get: ({ deps }, id) => getCheckIn(deps.db, id),
        actions: [
          {
            name: 'check-out',
            summary: 'Check out: record now as the check-out time (400 if already checked out)',
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
      }),
    )
}

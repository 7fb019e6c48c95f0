import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { addOnRoutes } from '../add-ons/routes.ts'
import { customerEntryPassRoutes } from '../customer-entry-passes/routes.ts'
import { customerMembershipRoutes } from '../customer-memberships/routes.ts'
import { entryPassTypeRoutes } from '../entry-pass-types/routes.ts'
import { eventRoutes } from '../events/routes.ts'
import { membershipTypeRoutes } from '../membership-types/routes.ts'
import { reservationRoutes } from '../reservations/routes.ts'

/**
 * What the gym sells and what customers hold: membership and entry pass types with add-ons, the
 * memberships and passes customers hold, and events with their reservations. One entry for app.ts.
 */
export const productRoutes = (deps: Deps) =>
  new Elysia()
    .use(membershipTypeRoutes(deps))
    .use(addOnRoutes(deps))
    .use(customerMembershipRoutes(deps))
    .use(entryPassTypeRoutes(deps))
    .use(customerEntryPassRoutes(deps))
    .use(eventRoutes(deps))
    .use(reservationRoutes(deps))

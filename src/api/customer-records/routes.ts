import { Elysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { customerCreditRoutes } from '../customer-credits/routes.ts'
import { customerEmergencyContactRoutes } from '../customer-emergency-contacts/routes.ts'
import { customerEventVoucherRoutes } from '../customer-event-vouchers/routes.ts'
import { customerMedicalNoteRoutes } from '../customer-medical-notes/routes.ts'
import { customerRelationRoutes } from '../customer-relations/routes.ts'

/** The customer sub-collections of reference 2.5-2.8 and 2.10, registered together. */
export const customerRecordsRoutes = (deps: Deps) =>
  new Elysia()
    .use(customerCreditRoutes(deps))
    .use(customerEmergencyContactRoutes(deps))
    .use(customerMedicalNoteRoutes(deps))
    .use(customerRelationRoutes(deps))
    .use(customerEventVoucherRoutes(deps))

import { Elysia, type AnyElysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { addOnRoutes } from './add-ons/routes.ts'
import { backupRoutes } from './backups/routes.ts'
import { LOGIN_PATHS, tokenRoutes } from './auth/routes.ts'
import { checkInRoutes } from './check-ins/routes.ts'
import { climbRoutes } from './climbs/routes.ts'
import { customerAlertRoutes } from './customer-alerts/routes.ts'
import { customerCreditRoutes } from './customer-credits/routes.ts'
import { customerDocumentRoutes, DOCUMENT_UPLOAD_PATHS } from './customer-documents/routes.ts'
import { customerEmergencyContactRoutes } from './customer-emergency-contacts/routes.ts'
import { customerEntryPassRoutes } from './customer-entry-passes/routes.ts'
import { customerEventVoucherRoutes } from './customer-event-vouchers/routes.ts'
import { customerPhotoRoutes, PHOTO_UPLOAD_PATHS } from './customer-photos/routes.ts'
import { kioskRoutes } from './kiosk/routes.ts'
import { customerMedicalNoteRoutes } from './customer-medical-notes/routes.ts'
import { customerMembershipRoutes } from './customer-memberships/routes.ts'
import { customerRelationRoutes } from './customer-relations/routes.ts'
import { CUSTOMER_IMPORT_PATHS, customerImportRoutes } from './customers/import-routes.ts'
import { customerRoutes } from './customers/routes.ts'
import { deskRoutes } from './desk/routes.ts'
import { deskCheckInRoutes } from './desk-check-ins/routes.ts'
import { discountRoutes } from './discounts/routes.ts'
import { doorRoutes } from './door/routes.ts'
import { entryPassTypeRoutes } from './entry-pass-types/routes.ts'
import { eventCategoryRoutes } from './event-categories/routes.ts'
import { eventQuestionRoutes } from './event-questions/routes.ts'
import { eventScheduleExceptionRoutes } from './event-schedule-exceptions/routes.ts'
import { eventScheduleRoutes } from './event-schedules/routes.ts'
import { eventTypeRoutes } from './event-types/routes.ts'
import { eventRoutes } from './events/routes.ts'
import { gymRoutes } from './gyms/routes.ts'
import { gradeRoutes } from './grades/routes.ts'
import { healthRoutes } from './health/routes.ts'
import { memberRoutes } from './members/routes.ts'
import { membershipAddOnNamesRoutes, metricsRoutes } from './metrics/routes.ts'
import { membershipTypeRoutes } from './membership-types/routes.ts'
import { monitoringRoutes } from './monitoring/routes.ts'
import { myAccountRoutes } from './my-account/routes.ts'
import { organizationRoutes } from './organization/routes.ts'
import { quickSaleRoutes } from './quick-sales/routes.ts'
import { paymentListRoutes } from './payments/list-routes.ts'
import { reservationRoutes } from './reservations/routes.ts'
import { sectionRoutes } from './sections/routes.ts'
import { waitlistEntryRoutes } from './waitlist-entries/routes.ts'
import { siteRoutes } from './sites/routes.ts'
import { taxRateRoutes } from './tax-rates/routes.ts'
import { userRoutes } from './users/routes.ts'
import { voucherPackRoutes } from './voucher-packs/routes.ts'
import { waiverTextRoutes } from './waiver-texts/routes.ts'
import { waiverRoutes } from './waivers/routes.ts'
import { invoiceRoutes } from './invoices/routes.ts'
import { paymentActionRoutes } from './payments/routes.ts'
import { giftRoutes } from './gifts/routes.ts'
import { webhookRoutes } from './webhooks/routes.ts'

/** Paths whose writes may be form-encoded, as DRF's ObtainAuthToken takes them. */
export const FORM_PATHS: ReadonlySet<string> = new Set(LOGIN_PATHS)
/** Paths whose writes may be multipart/form-data: file uploads, as DRF's MultiPartParser takes them. */
export const MULTIPART_PATHS: readonly RegExp[] = [
  ...DOCUMENT_UPLOAD_PATHS,
  ...PHOTO_UPLOAD_PATHS,
  ...CUSTOMER_IMPORT_PATHS,
]
/** Paths whose writes may be a text/csv body: the spreadsheet imports. */
export const CSV_PATHS: readonly RegExp[] = CUSTOMER_IMPORT_PATHS

/**
 * The one route table of the whole API, one line per resource. Whether a route needs a token is
 * said by the route itself (`docs({ public: true })` for the few that do not). Typed as any Elysia:
 * the chain's own type, grown by every resource, is deeper than TypeScript will instantiate.
 */
export const apiRoutes = (deps: Deps): AnyElysia =>
  new Elysia()
    .use(healthRoutes(deps))
    .use(deskRoutes())
    .use(monitoringRoutes(deps))
    .use(tokenRoutes(deps))
    // Staff and the organization
    .use(organizationRoutes(deps))
    .use(quickSaleRoutes(deps))
    .use(userRoutes(deps))
    .use(myAccountRoutes(deps))
    .use(gymRoutes(deps))
    .use(gradeRoutes(deps))
    .use(sectionRoutes(deps))
    .use(climbRoutes(deps))
    .use(eventTypeRoutes(deps))
    .use(eventQuestionRoutes(deps))
    .use(eventScheduleRoutes(deps))
    .use(eventScheduleExceptionRoutes(deps))
    .use(eventCategoryRoutes(deps))
    // Customers and their records
    .use(customerImportRoutes(deps))
    .use(customerRoutes(deps))
    .use(customerAlertRoutes(deps))
    .use(customerDocumentRoutes(deps))
    .use(customerPhotoRoutes(deps))
    .use(kioskRoutes(deps))
    .use(waiverTextRoutes(deps))
    .use(waiverRoutes(deps))
    .use(customerCreditRoutes(deps))
    .use(customerEmergencyContactRoutes(deps))
    .use(customerMedicalNoteRoutes(deps))
    .use(customerRelationRoutes(deps))
    .use(customerEventVoucherRoutes(deps))
    .use(memberRoutes(deps))
    // What the gym sells and what customers hold
    .use(membershipTypeRoutes(deps))
    .use(addOnRoutes(deps))
    .use(customerMembershipRoutes(deps))
    .use(entryPassTypeRoutes(deps))
    .use(customerEntryPassRoutes(deps))
    .use(eventRoutes(deps))
    .use(reservationRoutes(deps))
    .use(waitlistEntryRoutes(deps))
    .use(voucherPackRoutes(deps))
    .use(invoiceRoutes(deps))
    .use(paymentActionRoutes(deps))
    .use(giftRoutes(deps))
    // Prices: what products are taxed at, and the codes that take money off
    .use(taxRateRoutes(deps))
    .use(discountRoutes(deps))
    // Sales
    .use(paymentListRoutes(deps))
    // Reporting
    .use(metricsRoutes(deps))
    .use(membershipAddOnNamesRoutes(deps))
    // Integrations and the door
    .use(webhookRoutes(deps))
    .use(backupRoutes(deps))
    .use(siteRoutes(deps))
    .use(checkInRoutes(deps))
    .use(doorRoutes(deps))
    .use(deskCheckInRoutes(deps))

import type { Insertable, Selectable, Updateable } from 'kysely'
import type {
  CustomerTable,
  CustomerAlertTable,
  CustomerCreditTable,
  CustomerDocumentFileTable,
  CustomerDocumentTable,
  CustomerEmergencyContactTable,
  CustomerEventVoucherTable,
  CustomerMedicalNoteTable,
  CustomerPhotoTable,
  CustomerKioskPinTable,
  CustomerRelationTable,
} from './tables/customers.ts'
import type {
  CheckInDayCountTable,
  CheckInLocalTimeTable,
  CheckInMetricsStateTable,
  CheckInMetricsLateTable,
  CustomerFirstVisitDayTable,
  CheckInTable,
  ProductFirstUseTable,
  SameDayCheckInTable,
  WebhookDeliveryTable,
  WebhookEventTable,
  WebhookTable,
} from './tables/door.ts'
import type {
  AddOnDayCountTable,
  MemberDayCountTable,
  MemberHoldingSetItemTable,
  MemberHoldingSetTable,
  MembershipDayCountTable,
  MembershipHoldingTable,
  MembershipRollupStateTable,
} from './tables/membership-rollup.ts'
import type {
  AuthTokenTable,
  AuthSessionTable,
  EventCategoryTable,
  EventTypeCategoryTable,
  EventTypeTable,
  GymTable,
  OrganizationTable,
  StaffUserTable,
} from './tables/foundation.ts'
import type {
  AddOnTable,
  CustomerEntryPassTable,
  CustomerMembershipTable,
  EntryPassTypeTable,
  EventTable,
  MembershipMemberAddOnTable,
  MembershipMemberTable,
  MembershipStatusChangeTable,
  MembershipTypeTable,
  ReservationTable,
  WaitlistEntryTable,
  EventQuestionTable,
  EventScheduleTable,
  EventScheduleExceptionTable,
} from './tables/products.ts'
import type {
  SyncAppliedTable,
  SyncClockTable,
  SyncConflictTable,
  SyncOutboxTable,
  SyncStateTable,
} from './tables/sites.ts'
import type {
  DiscountTable,
  GiftTable,
  InvoiceDiscountTable,
  InvoiceLineItemTable,
  InvoiceTable,
  PaymentTable,
  QuickSaleTable,
  RefundTable,
  RevenueEntryTable,
  TaxRateTable,
  VoucherPackTable,
} from './tables/sales.ts'
import type { ClimbSetterTable, ClimbTable, GradeTable, SectionTable } from './tables/walls.ts'
import type { WaiverSignatureTable, WaiverTextTable } from './tables/waivers.ts'
import type { ImportProgressTable } from './tables/org-import.ts'

/** The database's tables, one interface each, grouped by concern in ./tables/. */
export type * from './tables/customers.ts'
export type * from './tables/door.ts'
export type * from './tables/flag.ts'
export type * from './tables/membership-rollup.ts'
export type * from './tables/foundation.ts'
export type * from './tables/products.ts'
export type * from './tables/sales.ts'
export type * from './tables/waivers.ts'
export type * from './tables/sites.ts'
export type * from './tables/org-import.ts'

export interface Database {
  organization: OrganizationTable
  gyms: GymTable
  staff_users: StaffUserTable
  auth_tokens: AuthTokenTable
  auth_sessions: AuthSessionTable
  event_types: EventTypeTable
  event_categories: EventCategoryTable
  event_type_categories: EventTypeCategoryTable
  customers: CustomerTable
  customer_alerts: CustomerAlertTable
  customer_credits: CustomerCreditTable
  customer_emergency_contacts: CustomerEmergencyContactTable
  customer_medical_notes: CustomerMedicalNoteTable
  customer_relations: CustomerRelationTable
  customer_documents: CustomerDocumentTable
  customer_document_files: CustomerDocumentFileTable
  customer_photos: CustomerPhotoTable
  customer_kiosk_pins: CustomerKioskPinTable
  waiver_texts: WaiverTextTable
  waiver_signatures: WaiverSignatureTable
  customer_event_vouchers: CustomerEventVoucherTable
  membership_types: MembershipTypeTable
  add_ons: AddOnTable
  customer_memberships: CustomerMembershipTable
  membership_status_changes: MembershipStatusChangeTable
  membership_members: MembershipMemberTable
  membership_member_add_ons: MembershipMemberAddOnTable
  entry_pass_types: EntryPassTypeTable
  customer_entry_passes: CustomerEntryPassTable
  events: EventTable
  reservations: ReservationTable
  waitlist_entries: WaitlistEntryTable
  event_questions: EventQuestionTable
  event_schedules: EventScheduleTable
  event_schedule_exceptions: EventScheduleExceptionTable
  grades: GradeTable
  sections: SectionTable
  climbs: ClimbTable
  climb_setters: ClimbSetterTable
  tax_rates: TaxRateTable
  discounts: DiscountTable
  voucher_packs: VoucherPackTable
  invoices: InvoiceTable
  invoice_discounts: InvoiceDiscountTable
  invoice_line_items: InvoiceLineItemTable
  payments: PaymentTable
  refunds: RefundTable
  gifts: GiftTable
  quick_sales: QuickSaleTable
  revenue_entries: RevenueEntryTable
  check_ins: CheckInTable
  product_first_uses: ProductFirstUseTable
  check_in_day_counts: CheckInDayCountTable
  check_in_local_times: CheckInLocalTimeTable
  customer_first_visit_days: CustomerFirstVisitDayTable
  same_day_check_ins: SameDayCheckInTable
  check_in_metrics_state: CheckInMetricsStateTable
  check_in_metrics_late: CheckInMetricsLateTable
  webhooks: WebhookTable
  webhook_events: WebhookEventTable
  webhook_deliveries: WebhookDeliveryTable
  membership_holdings: MembershipHoldingTable
  membership_day_counts: MembershipDayCountTable
  member_holding_sets: MemberHoldingSetTable
  member_holding_set_items: MemberHoldingSetItemTable
  member_day_counts: MemberDayCountTable
  add_on_day_counts: AddOnDayCountTable
  membership_rollup_state: MembershipRollupStateTable
  sync_state: SyncStateTable
  sync_outbox: SyncOutboxTable
  sync_applied: SyncAppliedTable
  sync_clocks: SyncClockTable
  sync_conflicts: SyncConflictTable
  import_progress: ImportProgressTable
}

export type Organization = Selectable<OrganizationTable>
export type Gym = Selectable<GymTable>
export type NewGym = Insertable<GymTable>
export type GymUpdate = Updateable<GymTable>
export type StaffUser = Selectable<StaffUserTable>
export type NewStaffUser = Insertable<StaffUserTable>
export type StaffUserUpdate = Updateable<StaffUserTable>
export type EventType = Selectable<EventTypeTable>
export type NewEventType = Insertable<EventTypeTable>
export type EventTypeUpdate = Updateable<EventTypeTable>
export type EventCategory = Selectable<EventCategoryTable>
export type Grade = Selectable<GradeTable>
export type Section = Selectable<SectionTable>
export type Climb = Selectable<ClimbTable>
export type Customer = Selectable<CustomerTable>
export type CustomerMembership = Selectable<CustomerMembershipTable>
export type MembershipType = Selectable<MembershipTypeTable>

import type { MembersReport } from '../../core/reports/members-report.ts'
import type { Urls } from '../../http/urls.ts'
import { centsToDecimal } from '../../lib/money.ts'
import type { MemberAddOnRow, MemberRow, ReportMembershipType } from '../../core/reports/queries.ts'

export function serializeMemberAddOn(addOn: MemberAddOnRow) {
  return {
    id: addOn.id,
    name: addOn.name,
    fee: centsToDecimal(addOn.fee_cents),
    is_visible: addOn.is_visible === 1,
    icon_color_hex: addOn.icon_color_hex,
    icon_initials: addOn.icon_initials,
    revenue_account_codes: JSON.parse(addOn.revenue_account_codes) as Record<string, string>,
    tax_rate_id: addOn.tax_rate_id,
    tax_rate_per_location:
      addOn.tax_rate_per_location === null
        ? null
        : (JSON.parse(addOn.tax_rate_per_location) as Record<string, unknown>),
  }
}

type AddOnOut = ReturnType<typeof serializeMemberAddOn>

/**
 * What a report's rows share, built once per report: each membership type's fields, gym names, and
 * the URL prefixes (one `urls.abs` per field per row was a measurable share of a large report).
 */
export class MemberRowContext {
  private readonly customers: string
  private readonly customerMemberships: string
  private readonly typeFields = new Map<number, ReturnType<MemberRowContext['membershipFields']>>()

  constructor(
    private readonly report: Pick<MembersReport, 'types' | 'gymNames'>,
    urls: Urls,
  ) {
    this.customers = urls.abs('/api/customers')
    this.customerMemberships = urls.abs('/api/customer-memberships')
    const memberships = urls.abs('/api/memberships')
    const gyms = urls.abs('/api/gyms')
    for (const type of report.types.values())
      this.typeFields.set(type.id, this.membershipFields(type, memberships, gyms))
  }

  customerUrl = (id: number) => `${this.customers}${id}/`
  membershipUrl = (id: number) => `${this.customerMemberships}${id}/`
  gymName = (id: number | null) => (id === null ? null : (this.report.gymNames.get(id) ?? null))
  typeOf = (id: number) => this.typeFields.get(id)!

  private membershipFields(type: ReportMembershipType, memberships: string, gyms: string) {
    return {
      membership_type_url: `${memberships}${type.id}/`,
      membership_name: type.name,
      membership_purchase_type: type.purchase_type,
      membership_interval: type.purchase_type === 'REC' ? type.interval : '',
      membership_is_group: type.is_group === 1,
      membership_is_youth_programming: type.is_youth_programming === 1,
      membership_duration_years: type.duration_years,
      membership_duration_months: type.duration_months,
      membership_duration_days: type.duration_days,
      location_id: type.location_id,
      location_url: type.location_id === null ? null : `${gyms}${type.location_id}/`,
      location_name: this.gymName(type.location_id),
    }
  }
}

/**
 * Billing fields (include_billing_info=true): the next bill's total for a recurring membership,
 * 0.00 for the others. Invoices do not exist yet in this version, so the last-invoice fields are
 * always null.
 */
function billingInfo(row: MemberRow, recurring: boolean) {
  const cents = recurring ? row.billing_amount_cents : 0
  // A row is itself a member, so the count is at least 1.
  const members = Number(row.num_members ?? 1)
  return {
    membership_num_members: members,
    billing_amount: centsToDecimal(cents),
    billing_amount_per_member: centsToDecimal(Math.round(cents / members)),
    last_invoice_id: null,
    last_invoice_amount: null,
    last_invoice_tax_amount: null,
    last_invoice_date: null,
  }
}

/** One member row; the billing fields only when `billing`. */
export function serializeMemberRow(
  row: MemberRow,
  addOns: readonly AddOnOut[],
  context: MemberRowContext,
  billing: boolean,
) {
  const type = context.typeOf(row.membership_type_id)
  const member = {
    customer_id: row.customer_id,
    customer_url: context.customerUrl(row.customer_id),
    first_name: row.first_name,
    last_name: row.last_name,
    birthday: row.birthday,
    email: row.email ?? '',
    telephone: row.telephone,
    address_postcode: row.address_postcode,
    address_street_1: row.address_street_1,
    address_street_2: row.address_street_2,
    address_city: row.address_city,
    address_state: row.address_state,
    address_country: row.address_country,
    home_location_id: row.home_location_id,
    home_location_name: context.gymName(row.home_location_id),
    add_ons: addOns,
    membership_id: row.membership_id,
    membership_url: context.membershipUrl(row.membership_id),
    membership_type_id: row.membership_type_id,
    membership_type_url: type.membership_type_url,
    membership_name: type.membership_name,
    membership_purchase_type: type.membership_purchase_type,
    membership_interval: type.membership_interval,
    membership_is_group: type.membership_is_group,
    membership_is_youth_programming: type.membership_is_youth_programming,
    membership_duration_years: type.membership_duration_years,
    membership_duration_months: type.membership_duration_months,
    membership_duration_days: type.membership_duration_days,
    location_id: type.location_id,
    location_url: type.location_url,
    location_name: type.location_name,
    owner_id: row.owner_id,
    owner_url: context.customerUrl(row.owner_id),
    owner_first_name: row.owner_first_name,
    owner_last_name: row.owner_last_name,
    owner_birthday: row.owner_birthday,
    owner_email: row.owner_email ?? '',
    owner_telephone: row.owner_telephone,
    status: row.status,
    is_pending_staff_approval: row.is_pending_staff_approval === 1,
    start_date: row.start_date,
    end_date: row.end_date,
    has_payment_method: row.has_payment_method === 1,
  }
  return billing ? { ...member, ...billingInfo(row, type.membership_purchase_type === 'REC') } : member
}

/** What rows are first written with; membersReportJson then puts each row's add-ons in. */
const NO_ADD_ONS: readonly never[] = []

/**
 * The whole report as JSON text, rows and add-ons as the serializers above shape them.
 *
 * Why not `JSON.stringify(rows)`: an add-on's revenue_account_codes is keyed by location id ("1"),
 * and one object with index-like keys sends JSC's JSON.stringify off its fast path for the whole
 * document, which made a large report several times slower to write. So the rows are written with
 * empty add-on lists, then each row's `,"add_ons":[]` gets that row's add-ons, each written once.
 * The match is exact: inside a JSON string every quote is escaped, so `,"add_ons":[]` occurs only as
 * the key of each row, once per row, in row order.
 */
export function membersReportJson(report: MembersReport, urls: Urls): string {
  const context = new MemberRowContext(report, urls)
  const addOnJson = new Map<string, string>()
  const rank = new Map<string, number>()
  report.addOns.forEach((addOn, i) => {
    addOnJson.set(addOn.id, JSON.stringify(serializeMemberAddOn(addOn)))
    rank.set(addOn.id, i)
  })
  const { rows, includeBillingInfo } = report
  const text = JSON.stringify(
    rows.map((row) => serializeMemberRow(row, NO_ADD_ONS, context, includeBillingInfo)),
  )
  let next = 0
  return text.replace(/,"add_ons":\[\]/g, (empty) => {
    const ids = rows[next++]!.add_on_ids
    if (ids === null || ids === '[]') return empty
    const list = (JSON.parse(ids) as string[]).sort((a, b) => rank.get(a)! - rank.get(b)!)
    return `,"add_ons":[${list.map((id) => addOnJson.get(id)!).join(',')}]`
  })
}

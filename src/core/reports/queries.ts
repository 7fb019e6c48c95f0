import { sql, type Expression, type SqlBool } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { MembershipStatus, PurchaseType } from '../../db/schema.ts'
import { ACTIVE_STATUSES } from '../../domain/membership-status.ts'

/*
 * The members report reads one row per membership_members row. The whole report is one set-based
 * query for the rows (each with its add-on ids) plus three small ones for what many rows share
 * (membership types, gym names, add-ons), whatever its size: on a large report, reading the type's
 * and gyms' columns again on every row cost more than the joins.
 */

export interface MemberFilters {
  /** Effective statuses to show; never an excluded one (status_in's tokens name only these). */
  statuses: readonly MembershipStatus[]
  membership_type_id?: number
  purchase_type?: PurchaseType
  is_group?: boolean
  is_youth_programming?: boolean
  add_on_name?: string
  home_location_id?: number
  start_date_min?: string
  start_date_max?: string
  has_payment_method?: boolean
}

/**
 * The member's status as the report shows it: an individually frozen member of an active
 * membership is FRZ; otherwise the membership's own status.
 */
const effectiveStatus = sql<MembershipStatus>`(CASE WHEN mm.is_frozen = 1 AND cm.status IN (${sql.join(
  ACTIVE_STATUSES,
)}) THEN 'FRZ' ELSE cm.status END)`

/**
 * Which membership statuses can yield one of `statuses` (FRZ also comes from an active membership
 * with a frozen member), so that the status index narrows the scan; and whether the effective
 * status must still be checked row by row. It need not be when every active status and FRZ are
 * wanted together (the default report), or when neither an active status nor FRZ is.
 */
function statusPlan(statuses: readonly MembershipStatus[]) {
  const wanted = new Set(statuses)
  const wantsFrozen = wanted.has('FRZ')
  const membershipStatuses = new Set(statuses)
  if (wantsFrozen) for (const status of ACTIVE_STATUSES) membershipStatuses.add(status)
  const checkEffective = wantsFrozen
    ? !ACTIVE_STATUSES.every((status) => wanted.has(status))
    : ACTIVE_STATUSES.some((status) => wanted.has(status))
  return { membershipStatuses: [...membershipStatuses], checkEffective }
}

const flag = (value: boolean) => (value ? 1 : 0)

function filtered(db: Db, f: MemberFilters) {
  const plan = statusPlan(f.statuses)
  let query = db
    .selectFrom('membership_members as mm')
    .innerJoin('customer_memberships as cm', 'cm.id', 'mm.customer_membership_id')
    .innerJoin('customers as c', 'c.id', 'mm.customer_id')
    .where('cm.status', 'in', plan.membershipStatuses)
  if (plan.checkEffective) query = query.where((eb) => eb(effectiveStatus, 'in', [...f.statuses]))
  if (f.membership_type_id !== undefined)
    query = query.where('cm.membership_type_id', '=', f.membership_type_id)
  const { purchase_type, is_group, is_youth_programming } = f
  if (purchase_type !== undefined || is_group !== undefined || is_youth_programming !== undefined) {
    // Evaluated once (it is not correlated): the few types that qualify.
    let types = db.selectFrom('membership_types').select('id')
    if (purchase_type !== undefined) types = types.where('purchase_type', '=', purchase_type)
    if (is_group !== undefined) types = types.where('is_group', '=', flag(is_group))
    if (is_youth_programming !== undefined)
      types = types.where('is_youth_programming', '=', flag(is_youth_programming))
    query = query.where('cm.membership_type_id', 'in', types)
  }
  if (f.home_location_id !== undefined) query = query.where('c.home_location_id', '=', f.home_location_id)
  // start_date holds the organization-local day, so whole-day bounds are plain comparisons.
  if (f.start_date_min !== undefined) query = query.where('cm.start_date', '>=', f.start_date_min)
  if (f.start_date_max !== undefined) query = query.where('cm.start_date', '<=', f.start_date_max)
  if (f.has_payment_method !== undefined)
    query = query.where('cm.has_payment_method', '=', flag(f.has_payment_method))
  const addOnName = f.add_on_name
  if (addOnName !== undefined)
    query = query.where((eb): Expression<SqlBool> =>
      eb.exists(
        eb
          .selectFrom('membership_member_add_ons as mma')
          .innerJoin('add_ons as a', 'a.id', 'mma.add_on_id')
          .select('mma.add_on_id')
          .whereRef('mma.membership_member_id', '=', 'mm.id')
          .where('a.name', '=', addOnName),
      ),
    )
  return query
}

/**
 * Report rows in the documented order: last name, first name (ASCII case-insensitive), then
 * membership id and customer id. `withMemberCounts` adds each membership's number of members.
 */
export const listMemberRows = (db: Db, f: MemberFilters, withMemberCounts: boolean) =>
  filtered(db, f)
    .innerJoin('customers as o', 'o.id', 'cm.owner_id')
    .select([
      'c.id as customer_id',
      'c.first_name',
      'c.last_name',
      'c.birthday',
      'c.email',
      'c.telephone',
      'c.address_postcode',
      'c.address_street_1',
      'c.address_street_2',
      'c.address_city',
      'c.address_state',
      'c.address_country',
      'c.home_location_id',
      'cm.id as membership_id',
      'cm.membership_type_id',
      'o.id as owner_id',
      'o.first_name as owner_first_name',
      'o.last_name as owner_last_name',
      'o.birthday as owner_birthday',
      'o.email as owner_email',
      'o.telephone as owner_telephone',
      'cm.is_pending_staff_approval',
      'cm.start_date',
      'cm.end_date',
      'cm.has_payment_method',
      'cm.billing_amount_cents',
    ])
    .select(effectiveStatus.as('status'))
    // The member's add-on ids as a JSON array ("[]" for none): one index probe per row.
    .select((eb) =>
      eb
        .selectFrom('membership_member_add_ons as mma')
        .select(sql<string>`json_group_array(mma.add_on_id)`.as('ids'))
        .whereRef('mma.membership_member_id', '=', 'mm.id')
        .as('add_on_ids'),
    )
    .$if(withMemberCounts, (query) =>
      query.select((eb) =>
        eb
          .selectFrom('membership_members as all_mm')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .whereRef('all_mm.customer_membership_id', '=', 'cm.id')
          .as('num_members'),
      ),
    )
    .orderBy(sql`c.last_name COLLATE NOCASE`)
    .orderBy(sql`c.first_name COLLATE NOCASE`)
    .orderBy('cm.id')
    .orderBy('c.id')
    .execute()

export type MemberRow = Awaited<ReturnType<typeof listMemberRows>>[number]

/** Every membership type's report fields (a short product list). */
export const listReportMembershipTypes = (db: Db) =>
  db
    .selectFrom('membership_types')
    .select([
      'id',
      'name',
      'purchase_type',
      'interval',
      'is_group',
      'is_youth_programming',
      'duration_years',
      'duration_months',
      'duration_days',
      'location_id',
    ])
    .execute()

export type ReportMembershipType = Awaited<ReturnType<typeof listReportMembershipTypes>>[number]

export const listGymNames = (db: Db) => db.selectFrom('gyms').select(['id', 'name']).execute()

/** Every add-on (a short product list), by name then id: the order a row lists its add-ons in. */
export const listAllAddOns = (db: Db) =>
  db
    .selectFrom('add_ons')
    .select([
      'id',
      'name',
      'fee_cents',
      'is_visible',
      'icon_color_hex',
      'icon_initials',
      'revenue_account_codes',
      'tax_rate_id',
      'tax_rate_per_location',
    ])
    .orderBy('name')
    .orderBy('id')
    .execute()

export type MemberAddOnRow = Awaited<ReturnType<typeof listAllAddOns>>[number]

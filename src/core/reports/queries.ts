import { sql, type CompiledQuery, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { MembershipStatus, PurchaseType } from '../../db/schema.ts'
import { ACTIVE_STATUSES } from '../../domain/membership-status.ts'
import { localDateOf } from '../../db/local-time-sql.ts'
import { utcOffsetPeriods } from '../../lib/local-time.ts'

/*
 * The members report has one row per membership_members row. The whole report is one set-based
 * query that writes every row's JSON, plus a small one for the add-ons, whatever its size.
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

/** What the report's JSON text takes from outside the database: URL prefixes and the add-ons' text. */
export interface MemberRowsText {
  /** Absolute URL prefixes ending in "/" (".../api/customers/"): a row's URL is prefix, id, "/". */
  urls: { customers: string; customerMemberships: string; memberships: string; gyms: string }
  /** Every add-on as `[id, its JSON object text]`, in the order a row lists its add-ons. */
  addOns: ReadonlyArray<readonly [string, string]>
  /** Adds each membership's number of members and the billing fields. */
  billing: boolean
  /**
   * Only the first `limit` rows after the one with these keys (`membersAfter`), in the report's
   * order: one chunk of an export, read by keyset. The whole report without it.
   */
  chunk?: { after: MemberRowKey | undefined; limit: number }
}

/** Where a row stands in the report's order: the names as written, then membership and customer id. */
export type MemberRowKey = readonly [
  last_name: string,
  first_name: string,
  membership_id: number,
  customer_id: number,
]

/** The report's order, which the keys of MemberRowKey follow. */
const ORDER_KEYS = [
  sql`c.last_name COLLATE NOCASE`,
  sql`c.first_name COLLATE NOCASE`,
  sql.ref('cm.id'),
  sql.ref('c.id'),
]

type Field = readonly [key: string, json: RawBuilder<unknown>]

/**
 * A JSON object's text from its members in order, each value an SQL expression that is JSON text
 * (never NULL, which concat() would leave out: a NULL is written as `null`).
 */
const jsonObjectText = (fields: readonly Field[]) =>
  sql`concat(${sql.join(
    fields.flatMap(([key, json], i) => [sql.lit(`${i === 0 ? '{' : ','}"${key}":`), json]),
  )}, '}')`

/** An integer column that may be NULL, as JSON. */
const orNull = (column: RawBuilder<unknown>) => sql`ifnull(${column}, 'null')`
/** A 0/1 column as JSON true/false. */
const bool = (column: RawBuilder<unknown>) => sql`(CASE WHEN ${column} = 1 THEN 'true' ELSE 'false' END)`
/** Text (or NULL) as a JSON string: json_quote escapes exactly as JSON.stringify does. */
const quoted = (value: RawBuilder<unknown>) => sql`json_quote(${value})`
const url = (prefix: string, id: RawBuilder<unknown>) => sql`json_quote(${prefix} || ${id} || '/')`
/** Cents as the API's decimal string ("12.50", "-0.05"), as lib/money.ts's centsToDecimal writes them. */
const decimal = (cents: RawBuilder<unknown>) =>
  sql`printf('"%s%d.%02d"', CASE WHEN ${cents} < 0 THEN '-' ELSE '' END, abs(${cents}) / 100, abs(${cents}) % 100)`

/** The organization's zone and the first and last instant an invoice was posted at (null without any). */
const invoiceSpan = (db: Db) =>
  db
    .selectFrom('organization')
    .where('organization.id', '=', 1)
    .select((eb) => [
      'organization.time_zone',
      eb
        .selectFrom('invoices')
        .select((eb) => eb.fn.min('created_at').as('first'))
        .as('first'),
      eb
        .selectFrom('invoices')
        .select((eb) => eb.fn.max('created_at').as('last'))
        .as('last'),
    ])
    .executeTakeFirstOrThrow()

/**
 * The whole report's statement: one row per member row, each the row's JSON object text, in the
 * documented order: last name, first name (ASCII case-insensitive), then membership id and
 * customer id. Run it with db/reader.ts readJsonArray, which makes the JSON array of them.
 *
 * SQLite writes each row's text itself, on the reader's thread: reading thousands of rows of 50
 * fields as JavaScript objects only to write them out again as JSON held the server's thread for
 * most of a large report. The rows are joined into the array outside SQLite: group_concat over the
 * whole report cost more than writing its rows.
 */
export async function memberRowsQuery(
  db: Db,
  f: MemberFilters,
  text: MemberRowsText,
): Promise<CompiledQuery> {
  const c = (column: string) => sql.ref(`c.${column}`)
  const o = (column: string) => sql.ref(`o.${column}`)
  const { urls } = text
  const recurring = sql`mt.purchase_type = 'REC'`
  // Each membership type's fields, written once per type (a short product list), not on every row.
  const typeFields: Field[] = [
    ['membership_type_url', url(urls.memberships, sql.ref('mt.id'))],
    ['membership_name', quoted(sql.ref('mt.name'))],
    ['membership_purchase_type', quoted(sql.ref('mt.purchase_type'))],
    ['membership_interval', quoted(sql`(CASE WHEN ${recurring} THEN mt.interval ELSE '' END)`)],
    ['membership_is_group', bool(sql.ref('mt.is_group'))],
    ['membership_is_youth_programming', bool(sql.ref('mt.is_youth_programming'))],
    ['membership_duration_years', orNull(sql.ref('mt.duration_years'))],
    ['membership_duration_months', orNull(sql.ref('mt.duration_months'))],
    ['membership_duration_days', orNull(sql.ref('mt.duration_days'))],
    ['location_id', orNull(sql.ref('mt.location_id'))],
    [
      'location_url',
      sql`(CASE WHEN mt.location_id IS NULL THEN 'null' ELSE ${url(urls.gyms, sql.ref('mt.location_id'))} END)`,
    ],
    ['location_name', quoted(sql.ref('lg.name'))],
  ]
  const types = db
    .selectFrom('membership_types as mt')
    .leftJoin('gyms as lg', 'lg.id', 'mt.location_id')
    .select([
      'mt.id',
      sql<number>`${recurring}`.as('is_recurring'),
      ...typeFields.map(([key, json]) => json.as(key)),
    ])
  const billingCents = sql`(CASE WHEN report_types.is_recurring THEN cm.billing_amount_cents ELSE 0 END)`
  // Counted once per membership (report_billing below); a row is itself a member, so at least 1.
  const memberCount = sql.ref('report_billing.member_count')
  // Rounded half up, as Math.round(cents / members): floor((2 cents + n) / 2n).
  const perMemberCents = sql`CAST(floor((2.0 * ${billingCents} + ${memberCount}) / (2 * ${memberCount})) AS INTEGER)`
  // The member's add-ons, each the JSON text given for it, in the order given: one index probe per row.
  const addOns = sql`'[' || ifnull((
      SELECT group_concat(a.value ->> 1, ',' ORDER BY a.key)
      FROM membership_member_add_ons AS mma JOIN json_each(${JSON.stringify(text.addOns)}) AS a
        ON a.value ->> 0 = mma.add_on_id
      WHERE mma.membership_member_id = mm.id), '') || ']'`
  const fields: Field[] = [
    ['customer_id', c('id')],
    ['customer_url', url(urls.customers, c('id'))],
    ['first_name', quoted(c('first_name'))],
    ['last_name', quoted(c('last_name'))],
    ['birthday', quoted(c('birthday'))],
    ['email', quoted(sql`ifnull(c.email, '')`)],
    ['telephone', quoted(c('telephone'))],
    ['address_postcode', quoted(c('address_postcode'))],
    ['address_street_1', quoted(c('address_street_1'))],
    ['address_street_2', quoted(c('address_street_2'))],
    ['address_city', quoted(c('address_city'))],
    ['address_state', quoted(c('address_state'))],
    ['address_country', quoted(c('address_country'))],
    ['home_location_id', orNull(c('home_location_id'))],
    ['home_location_name', quoted(sql.ref('hg.name'))],
    ['add_ons', addOns],
    ['membership_id', sql.ref('cm.id')],
    ['membership_url', url(urls.customerMemberships, sql.ref('cm.id'))],
    ['membership_type_id', sql.ref('cm.membership_type_id')],
    ...typeFields.map(([key]): Field => [key, sql.ref(`report_types.${key}`)]),
    ['owner_id', o('id')],
    ['owner_url', url(urls.customers, o('id'))],
    ['owner_first_name', quoted(o('first_name'))],
    ['owner_last_name', quoted(o('last_name'))],
    ['owner_birthday', quoted(o('birthday'))],
    ['owner_email', quoted(sql`ifnull(o.email, '')`)],
    ['owner_telephone', quoted(o('telephone'))],
    ['status', quoted(effectiveStatus)],
    ['is_pending_staff_approval', bool(sql.ref('cm.is_pending_staff_approval'))],
    ['start_date', quoted(sql.ref('cm.start_date'))],
    ['end_date', quoted(sql.ref('cm.end_date'))],
    ['has_payment_method', bool(sql.ref('cm.has_payment_method'))],
  ]
  if (text.billing) {
    const span = await invoiceSpan(db)
    const offsets =
      span.first === null || span.last === null
        ? []
        : utcOffsetPeriods(span.time_zone, Date.parse(span.first), Date.parse(span.last))
    const last = (column: string) => sql.ref(`report_billing.${column}`)
    const invoiced = (json: RawBuilder<unknown>) =>
      sql`(CASE WHEN report_billing.invoice_id IS NULL THEN 'null' ELSE ${json} END)`
    fields.push(
      ['membership_num_members', memberCount],
      ['billing_amount', decimal(billingCents)],
      ['billing_amount_per_member', decimal(perMemberCents)],
      ['last_invoice_id', orNull(last('invoice_id'))],
      ['last_invoice_amount', invoiced(decimal(last('amount_cents')))],
      ['last_invoice_tax_amount', invoiced(decimal(last('tax_cents')))],
      // Without any invoice no row has one: every date is null.
      ['last_invoice_date', offsets.length ? quoted(localDateOf(last('created_at'), offsets)) : sql`'null'`],
    )
  }
  // The rows' order first, as member ids alone: sorting the written rows would carry all their text
  // through the sort. Then each row is written in that order (the CROSS JOIN keeps the ordered ids
  // the outer loop, so the rows come out in it; the tests pin the order).
  const { chunk } = text
  const after = chunk?.after
  const ordered = ORDER_KEYS.reduce(
    (query, key) => query.orderBy(key),
    filtered(db, f)
      .select('mm.id as member_id')
      // The rows past the last one read: the order's keys as one row value, the names compared as
      // the order compares them.
      .$if(after !== undefined, (query) =>
        query.where(
          sql<SqlBool>`(${sql.join(ORDER_KEYS)}) > (${sql.join(after!.map((key) => sql`${key}`))})`,
        ),
      ),
  ).$if(chunk !== undefined, (query) => query.limit(chunk!.limit))
  return (
    db
      .with(
        (cte) => cte('report_order').materialized(),
        () => ordered,
      )
      .with(
        (cte) => cte('report_types').materialized(),
        () => types,
      )
      // What the billing fields say of each membership of the report, once per membership: how many
      // members it has, and the invoice it was last billed on, the newest invoice holding a MIN or MRE
      // line for it, with its total (every line's net and tax) and its tax. Invoices are posted with
      // the clock's time and never back-dated, and a line is written with its invoice, so the newest
      // is that of the membership's MIN or MRE line with the highest id: its last entry in
      // invoice_line_items_membership, found without visiting older invoices.
      .with(
        (cte) => cte('report_billing').materialized(),
        (qc) =>
          qc
            .selectFrom((eb) =>
              eb
                .selectFrom('report_order')
                .innerJoin('membership_members as mm', 'mm.id', 'report_order.member_id')
                .select('mm.customer_membership_id as membership_id')
                .distinct()
                .as('billed'),
            )
            .leftJoin('invoices as i', (join) =>
              join.on((eb) =>
                eb(
                  'i.id',
                  '=',
                  eb
                    .selectFrom('invoice_line_items as li')
                    .select('li.invoice_id')
                    .whereRef('li.customer_membership_id', '=', 'billed.membership_id')
                    .where('li.purchase_type', 'in', ['MIN', 'MRE'])
                    .orderBy('li.id', 'desc')
                    .limit(1),
                ),
              ),
            )
            .leftJoin('invoice_line_items as l', 'l.invoice_id', 'i.id')
            .groupBy('billed.membership_id')
            .select((eb) => [
              'billed.membership_id',
              eb
                .selectFrom('membership_members as all_mm')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .whereRef('all_mm.customer_membership_id', '=', 'billed.membership_id')
                .as('member_count'),
              'i.id as invoice_id',
              'i.created_at',
              sql<number>`sum(l.net_cents + l.tax_cents)`.as('amount_cents'),
              sql<number>`sum(l.tax_cents)`.as('tax_cents'),
            ]),
      )
      .selectFrom('report_order')
      .crossJoin('membership_members as mm')
      .innerJoin('customer_memberships as cm', 'cm.id', 'mm.customer_membership_id')
      .innerJoin('customers as c', 'c.id', 'mm.customer_id')
      .innerJoin('customers as o', 'o.id', 'cm.owner_id')
      .innerJoin('report_types', 'report_types.id', 'cm.membership_type_id')
      .leftJoin('gyms as hg', 'hg.id', 'c.home_location_id')
      // Only the billing fields read it; an unread CTE is never run.
      .$if(text.billing, (qb) => qb.innerJoin('report_billing', 'report_billing.membership_id', 'cm.id'))
      .whereRef('mm.id', '=', 'report_order.member_id')
      .select(sql<string>`${jsonObjectText(fields)}`.as('json'))
      .compile()
  )
}

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

import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { PURCHASE_TYPES } from '../../domain/products.ts'
import { filterQuery } from '../../http/filters.ts'

/**
 * GET /api/members/: its filters, in the filter form's order (a 400 lists
 * failing filters in it). Every filter arrives as a string; rules.ts reads them, so that bad values
 * get django-filter's wording and every failing filter is reported at once. The `exact` ones are
 * raw text that rules.ts reads further (a choice, a token list, "true or anything else").
 */
export const MEMBER_FILTERS = {
  status_in: {
    kind: 'exact',
    description:
      'Comma-separated tokens active (ACT, IPP, PPR), frozen (FRZ, FPR), failed (PAF, FPF), matched ' +
      'against the effective status; all three when omitted',
  },
  membership_id: {
    kind: 'id',
    description: "A membership TYPE id (the row's membership_type_id); an unknown id is 400",
  },
  purchase_type: { kind: 'choice', choices: PURCHASE_TYPES, description: 'REC, PRE or BEN' },
  is_group: { kind: 'bool', description: 'true or false (any case)' },
  is_youth_programming: { kind: 'bool', description: 'true or false (any case)' },
  add_on_name: {
    kind: 'exact',
    description: 'Members having an add-on with exactly this name (case-sensitive)',
  },
  home_location_id: { kind: 'id', description: "The member's own home location (a gym id)" },
  start_date_min: {
    kind: 'date',
    description: 'YYYY-MM-DD: membership starts on or after this organization-local day',
  },
  start_date_max: {
    kind: 'date',
    description: 'YYYY-MM-DD: membership starts on or before this organization-local day',
  },
  has_payment_method: {
    kind: 'exact',
    description: 'true: with a saved payment method; any other value: without',
  },
  include_billing_info: {
    kind: 'bool',
    description: 'true adds the billing fields (true or false, any case; default false)',
  },
} as const

/** What the OpenAPI page shows (typed; rules.ts reads the raw strings): one plain array, so no pages. */
export const MemberQuery = filterQuery(MEMBER_FILTERS, { paginated: false })

const money = (description?: string) => t.String({ pattern: '^-?[0-9]+\\.[0-9]{2}$', description })

export const MemberAddOnOut = t.Object({
  id: t.String(),
  name: t.String(),
  fee: money(),
  is_visible: t.Boolean(),
  icon_color_hex: t.String(),
  icon_initials: t.String(),
  revenue_account_codes: t.Record(t.String(), t.String(), {
    description: 'Location id -> revenue account code',
  }),
  tax_rate_id: field.nullable(t.Integer()),
  tax_rate_per_location: field.nullable(
    t.Record(t.String(), t.Unknown(), { description: 'Location id -> tax rate' }),
  ),
})

const nullableInt = () => field.nullable(t.Integer())

/** The fields a row has only with `include_billing_info=true`. */
export const BILLING_FIELDS = [
  'membership_num_members',
  'billing_amount',
  'billing_amount_per_member',
  'last_invoice_id',
  'last_invoice_amount',
  'last_invoice_tax_amount',
  'last_invoice_date',
] as const

export const MemberRowOut = t.Object({
  customer_id: t.Integer(),
  customer_url: out.url(),
  first_name: t.String(),
  last_name: t.String(),
  birthday: out.date(),
  email: t.String({ description: 'Empty when the customer has none' }),
  telephone: t.String(),
  address_postcode: t.String(),
  address_street_1: t.String(),
  address_street_2: t.String(),
  address_city: t.String(),
  address_state: t.String(),
  address_country: t.String({ description: 'Two-letter code' }),
  home_location_id: nullableInt(),
  home_location_name: field.nullable(t.String()),
  add_ons: t.Array(MemberAddOnOut, { description: "This member's add-ons on this membership, by name" }),
  membership_id: t.Integer({ description: 'The customer membership' }),
  membership_url: out.url(),
  membership_type_id: t.Integer(),
  membership_type_url: out.url(),
  membership_name: t.String(),
  membership_purchase_type: t.String({ description: 'REC, PRE or BEN' }),
  membership_interval: t.String({ description: 'Billing interval code when recurring, else empty' }),
  membership_is_group: t.Boolean(),
  membership_is_youth_programming: t.Boolean(),
  membership_duration_years: nullableInt(),
  membership_duration_months: nullableInt(),
  membership_duration_days: nullableInt(),
  location_id: nullableInt(),
  location_url: field.nullable(out.url()),
  location_name: field.nullable(t.String()),
  owner_id: t.Integer(),
  owner_url: out.url(),
  owner_first_name: t.String(),
  owner_last_name: t.String(),
  owner_birthday: out.date(),
  owner_email: t.String({ description: 'Empty when the owner has none' }),
  owner_telephone: t.String(),
  status: t.String({
    description: 'Effective status: FRZ for an individually frozen member of an active membership',
  }),
  is_pending_staff_approval: t.Boolean(),
  start_date: out.date(),
  end_date: field.nullable(out.date()),
  has_payment_method: t.Boolean(),
  membership_num_members: t.Optional(t.Integer({ description: 'Only with include_billing_info=true' })),
  billing_amount: t.Optional(money('Next bill total when recurring, else 0.00; only with billing info')),
  billing_amount_per_member: t.Optional(money('billing_amount / membership_num_members')),
  last_invoice_id: t.Optional(nullableInt()),
  last_invoice_amount: t.Optional(field.nullable(money())),
  last_invoice_tax_amount: t.Optional(field.nullable(money())),
  last_invoice_date: t.Optional(field.nullable(out.date())),
})

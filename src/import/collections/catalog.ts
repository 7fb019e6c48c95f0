import { type Collection, cents, each, flag, nullableCents, put, stamps, units } from './writing.ts'

/** What the gym sells: membership types, add-ons, entry pass types, voucher packs, discounts. */
export const CATALOG: Collection[] = [
  {
    name: 'membership types',
    path: '/api/memberships/',
    write: each(async (trx, r) =>
      put(trx, 'membership_types', {
        id: r.id,
        name: r.name,
        description: r.description ?? '',
        status: r.status,
        purchase_type: r.purchase_type,
        interval: r.interval ?? '',
        price_cents: cents(r.price),
        is_group: flag(r.is_group),
        is_youth_programming: flag(r.is_youth_programming),
        duration_years: r.duration_years ?? null,
        duration_months: r.duration_months ?? null,
        duration_days: r.duration_days ?? null,
        location_id: r.location_id ?? null,
        access_hours: r.access_hours == null ? null : JSON.stringify(r.access_hours),
        guest_passes_per_month: r.guest_passes_per_month ?? 0,
        tax_rate_id: r.tax_rate_id ?? null,
        revenue_account_code: r.revenue_account_code ?? '',
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'add-ons',
    path: '/api/add-ons/',
    write: each(async (trx, r) =>
      put(trx, 'add_ons', {
        id: String(r.id),
        name: r.name,
        fee_cents: cents(r.fee),
        is_visible: flag(r.is_visible),
        icon_color_hex: r.icon_color_hex ?? '',
        icon_initials: r.icon_initials ?? '',
        revenue_account_codes: JSON.stringify(r.revenue_account_codes ?? {}),
        tax_rate_id: r.tax_rate_id ?? null,
        tax_rate_per_location:
          r.tax_rate_per_location == null ? null : JSON.stringify(r.tax_rate_per_location),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'entry pass types',
    path: '/api/entry-passes/',
    write: each(async (trx, r) =>
      put(trx, 'entry_pass_types', {
        id: r.id,
        name: r.name,
        status: r.status,
        number_of_entries: r.number_of_entries,
        valid_days: r.valid_days ?? null,
        price_cents: cents(r.price),
        tax_rate_id: r.tax_rate_id ?? null,
        revenue_account_code: r.revenue_account_code ?? '',
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'voucher packs',
    path: '/api/voucher-packs/',
    write: each(async (trx, r) =>
      put(trx, 'voucher_packs', {
        id: r.id,
        name: r.name,
        status: r.status,
        event_type_id: r.event_type_id,
        number_of_uses: r.number_of_uses,
        valid_days: r.valid_days ?? null,
        price_cents: cents(r.price),
        tax_rate_id: r.tax_rate_id ?? null,
        revenue_account_code: r.revenue_account_code ?? '',
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'discounts',
    path: '/api/discounts/',
    write: each(async (trx, r) =>
      put(trx, 'discounts', {
        id: r.id,
        code: r.code,
        name: r.name ?? '',
        display_name: r.display_name ?? '',
        association_id: r.association_id ?? null,
        percent_off_hundredths: r.percent_off == null ? null : units(r.percent_off, 2),
        amount_off_cents: nullableCents(r.amount_off ?? null),
        is_active: flag(r.is_active),
        ...stamps(r),
      }),
    ),
  },
]

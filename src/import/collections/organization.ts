import { type Collection, each, flag, put, stamps, units } from './writing.ts'

/** The organization, its gyms, tax rates, staff and waiver texts: what everything else names. */
export const ORGANIZATION: Collection[] = [
  {
    name: 'organization',
    path: '/api/organization/',
    single: true,
    write: each(async (trx, r) =>
      put(trx, 'organization', {
        id: 1,
        name: r.name,
        time_zone: r.time_zone,
        currency: r.currency,
        waiver_required: flag(r.waiver_required),
        milestones: JSON.stringify(r.milestones),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'gyms',
    path: '/api/gyms/',
    write: each(async (trx, r) =>
      put(trx, 'gyms', {
        id: r.id,
        name: r.name,
        hide_setter: flag(r.hide_setter),
        time_zone: r.time_zone,
        scheduler_url_path: r.scheduler_url_path ?? '',
        scheduler_landing_page_text: r.scheduler_landing_page_text ?? '',
        scheduler_first_day_of_week: r.scheduler_first_day_of_week ?? 'SUN',
        capacity: r.capacity ?? null,
        combine_same_day_check_ins: flag(r.combine_same_day_check_ins),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'tax rates',
    path: '/api/tax-rates/',
    write: each(async (trx, r) =>
      put(trx, 'tax_rates', {
        id: r.id,
        name: r.name,
        rate_basis_points: units(r.rate, 4),
        is_active: flag(r.is_active),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'staff users',
    path: '/api/users/',
    // No password and no PIN travel: each account gets none here, and an admin sets them.
    write: each(async (trx, r) =>
      put(trx, 'staff_users', {
        id: r.id,
        email: r.email,
        first_name: r.first_name,
        last_name: r.last_name,
        default_gym_id: r.default_gym_id,
        date_joined: r.date_joined,
        is_active: flag(r.is_active),
        can_manage_events: flag(r.can_manage_events),
        can_manage_members: flag(r.can_manage_members),
        can_manage_customer_proficiencies: flag(r.can_manage_customer_proficiencies),
        can_export_customers: flag(r.can_export_customers),
        can_access_reports: flag(r.can_access_reports),
        can_manage_climbs: flag(r.can_manage_climbs),
        is_organization_admin: flag(r.is_organization_admin),
        pin_mode_required: flag(r.pin_mode_required),
        password_hash: null,
        pin_hash: null,
      }),
    ),
  },
  {
    name: 'waiver texts',
    path: '/api/waiver-texts/',
    write: each(async (trx, r) =>
      put(trx, 'waiver_texts', {
        id: r.id,
        text: r.text,
        valid_for_days: r.valid_for_days ?? null,
        created_at: r.created_at,
        created_by_user_id: r.created_by_id ?? null,
      }),
    ),
  },
]

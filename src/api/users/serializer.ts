import type { Urls } from '../../http/urls.ts'
import type { StaffUserRow } from './queries.ts'

/** The permission flags as JSON booleans; shared by the staff user and my-account shapes. */
export function permissionFlags(user: StaffUserRow) {
  return {
    can_manage_events: user.can_manage_events === 1,
    can_manage_members: user.can_manage_members === 1,
    can_manage_customer_proficiencies: user.can_manage_customer_proficiencies === 1,
    can_export_customers: user.can_export_customers === 1,
    can_access_reports: user.can_access_reports === 1,
    can_manage_climbs: user.can_manage_climbs === 1,
    is_organization_admin: user.is_organization_admin === 1,
    pin_mode_required: user.pin_mode_required === 1,
  }
}

export function serializeUser(user: StaffUserRow, urls: Urls) {
  return {
    id: user.id,
    url: urls.abs('/api/users', user.id),
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    default_gym_id: user.default_gym_id,
    default_gym_name: user.default_gym_name,
    default_gym_url: urls.abs('/api/gyms', user.default_gym_id),
    date_joined: user.date_joined,
    is_active: user.is_active === 1,
    ...permissionFlags(user),
    has_password: user.password_hash !== null,
    has_pin: user.pin_hash !== null,
  }
}

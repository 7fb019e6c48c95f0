import type { Organization } from '../../db/schema.ts'
import type { Urls } from '../../http/urls.ts'
import type { StaffUserRow } from '../users/queries.ts'
import { permissionFlags } from '../users/serializer.ts'

export function serializeMyAccount(
  user: StaffUserRow,
  org: Organization,
  urls: Urls,
  pinMode: boolean,
  kiosk = false,
) {
  return {
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    organization_name: org.name,
    default_gym_id: user.default_gym_id,
    default_gym_name: user.default_gym_name,
    default_gym_url: urls.abs('/api/gyms', user.default_gym_id),
    date_joined: user.date_joined,
    ...permissionFlags(user),
    pin_mode: pinMode,
    kiosk,
  }
}

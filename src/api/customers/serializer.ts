import type { Urls } from '../../http/urls.ts'
import type { CustomerConflict } from '../sites/queries.ts'
import type { CustomerRow } from './queries.ts'

/**
 * The customer as the API shows it. An export serializes every customer this way (21,000 in the
 * large demo), so the record is built in one literal: the links to its sub-collections extend its
 * own URL (`urls.abs` builds that once; each sub-collection's path is a fixed word), and a customer
 * with no site conflicts (nearly every one) has its `[]` taken as it is rather than parsed.
 */
export function serializeCustomer(customer: CustomerRow, urls: Urls) {
  const url = urls.abs('/api/customers', customer.id)
  return {
    id: customer.id,
    url,
    first_name: customer.first_name,
    last_name: customer.last_name,
    preferred_name: customer.preferred_name,
    email: customer.email,
    telephone: customer.telephone,
    birthday: customer.birthday,
    barcode: customer.barcode,
    is_active: customer.is_active === 1,
    home_location_id: customer.home_location_id,
    home_location_name: customer.home_location_name,
    home_location_url:
      customer.home_location_id === null ? null : urls.abs('/api/gyms', customer.home_location_id),
    address_street_1: customer.address_street_1,
    address_street_2: customer.address_street_2,
    address_city: customer.address_city,
    address_state: customer.address_state,
    address_postcode: customer.address_postcode,
    address_country: customer.address_country,
    profile_image_url: urls.link(customer.profile_image_url),
    first_check_in_timestamp: customer.first_check_in_timestamp,
    has_active_membership: customer.has_active_membership === 1,
    active_waiver_exists: customer.active_waiver_exists === 1,
    latest_waiver_expiration_date: customer.latest_waiver_expiration_date,
    site_conflicts:
      customer.site_conflicts === '[]'
        ? []
        : (JSON.parse(customer.site_conflicts) as CustomerConflict[]).map((conflict) => ({
            barcode: conflict.value,
            site: conflict.site,
            kept_by_customer_id: conflict.kept_by_customer_id,
            kept_by_customer_url: urls.abs('/api/customers', conflict.kept_by_customer_id),
            kept_by_customer_name: conflict.kept_by_customer_name,
            detected_at: conflict.detected_at,
          })),
    created_at: customer.created_at,
    updated_at: customer.updated_at,
    // The sub-collections, so a client can navigate from the record.
    credits_url: `${url}credits/`,
    emergency_contacts_url: `${url}emergency-contacts/`,
    medical_notes_url: `${url}medical-notes/`,
    relations_url: `${url}relations/`,
    documents_url: `${url}documents/`,
    event_vouchers_url: `${url}event-vouchers/`,
    alerts_url: `${url}alerts/`,
    check_ins_url: `${url}check-ins/`,
  }
}

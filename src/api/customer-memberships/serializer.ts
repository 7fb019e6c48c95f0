import type { Urls } from '../../http/urls.ts'
import { centsToDecimal } from '../../lib/money.ts'
import type { CustomerMembershipRow } from './queries.ts'

export function serializeCustomerMembership(row: CustomerMembershipRow, urls: Urls) {
  return {
    id: row.id,
    url: urls.abs('/api/customer-memberships', row.id),
    membership_id: row.membership_type_id,
    membership_name: row.membership_name,
    membership_url: urls.abs('/api/memberships', row.membership_type_id),
    owner_id: row.owner_id,
    owner_url: urls.abs('/api/customers', row.owner_id),
    owner_first_name: row.owner_first_name,
    owner_last_name: row.owner_last_name,
    status: row.status,
    start_date: row.start_date,
    end_date: row.end_date,
    billing_location_id: row.billing_location_id,
    billing_location_name: row.billing_location_name,
    billing_location_url:
      row.billing_location_id === null ? null : urls.abs('/api/gyms', row.billing_location_id),
    has_payment_method: row.has_payment_method === 1,
    is_pending_staff_approval: row.is_pending_staff_approval === 1,
    billing_amount: centsToDecimal(row.billing_amount_cents),
    referring_customer_id: row.referring_customer_id,
    members: row.members.map((m) => ({
      customer_id: m.customer_id,
      customer_url: urls.abs('/api/customers', m.customer_id),
      first_name: m.first_name,
      last_name: m.last_name,
      is_frozen: m.is_frozen === 1,
      add_ons: m.add_ons.map((a) => ({ id: a.id, name: a.name })),
    })),
    status_history: row.status_history.map((h) => ({
      from_status: h.from_status,
      to_status: h.to_status,
      changed_on: h.changed_on,
      member_customer_id: h.member_customer_id,
    })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

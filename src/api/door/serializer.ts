import type { Urls } from '../../http/urls.ts'
import type { AdmittedCheckIn } from '../../core/door/record.ts'
import type { DoorCustomer } from '../../core/door/queries.ts'

/** The 200 body of barcode check-in. */
export function serializeBarcodeCheckIn(customer: DoorCustomer, checkIn: AdmittedCheckIn) {
  return {
    id: checkIn.id,
    customer_id: customer.id,
    customer_first_name: customer.first_name,
    customer_last_name: customer.last_name,
    customer_email: customer.email,
    entry_method: checkIn.entry_method,
    entry_method_description: checkIn.entry_method_description,
    milestones: checkIn.milestones.join('\n'),
    check_in_count: checkIn.check_in_count,
    has_any_automatic_check_ins: checkIn.checked_in_to_event,
    // Challenges and association memberships are not kept by the appliance.
    has_any_challenges_completed: false,
    customer_alerts: checkIn.customer_alerts.map((a) => ({
      alert_text: a.alert_text,
      created_date: a.created_date,
      color_hex: a.color_hex,
      prevents_check_in: false,
    })),
    reservations: checkIn.reservations.map((r) => ({
      id: r.reservation_id,
      event_id: r.event_id,
      event_name: r.event_name,
      start_datetime: r.start_at,
      end_datetime: r.end_at,
    })),
    association_memberships_pending_reverification: [],
  }
}

/** The customer fields a 400 of barcode check-in carries (a 404 carries none). */
export const customerFields = (customer: DoorCustomer) => ({
  customer_id: customer.id,
  customer_first_name: customer.first_name,
  customer_last_name: customer.last_name,
  customer_email: customer.email,
})

/** The identity-check view of a customer (member look-up by barcode). */
export function serializeLookUpCustomer(customer: DoorCustomer, urls: Urls) {
  const image = urls.link(customer.profile_image_url) || null
  return {
    id: customer.id,
    first_name: customer.first_name,
    last_name: customer.last_name,
    birthday: customer.birthday,
    profile_image_url: image,
    // No resized copy is kept: the small image is the same picture.
    profile_image_small_url: image,
  }
}

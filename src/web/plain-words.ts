/**
 * The API's refusals in the words the desk uses. The API names fields as its JSON does
 * (`first_name`, `line_items[1].unit_price`); the person at the desk reads "First name". A form that
 * shows an error beside its own field uses its own label; these are for the rest: a message with no
 * field of its own on the screen.
 */

/** The fields a desk's forms send, as the form labels them. */
const FIELD_LABELS: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  preferred_name: 'Preferred name',
  email: 'Email',
  telephone: 'Phone',
  birthday: 'Birthday',
  barcode: 'Card',
  password: 'Password',
  username: 'Email',
  pin: 'PIN',
  name: 'Name',
  customer_id: 'Customer',
  host_customer_id: 'Host member',
  location_id: 'Gym',
  home_location_id: 'Home gym',
  address_street_1: 'Street',
  address_street_2: 'Street (second line)',
  address_city: 'City',
  address_state: 'State',
  address_postcode: 'Postcode',
  address_country: 'Country',
  expiration_date: 'Expires',
  free_entry_reason: 'Reason',
  alert_text: 'Alert',
  line_items: 'Products',
  payments: 'Payment',
  discount_codes: 'Discount',
  unit_price: 'Price',
  quantity: 'Quantity',
  amount: 'Amount',
  tax_rate_id: 'Tax',
  start_date: 'Start date',
  photo: 'Photo',
  pdf: 'PDF',
  event_id: 'Class',
  event_voucher_id: 'Voucher',
}

/**
 * A field's path in words: `first_name` is "First name"; `line_items[1].unit_price` is "Products,
 * line 2: Price"; a field no form names is its own words ("gym_code" reads "Gym code").
 */
export function fieldLabel(path: string): string {
  return path
    .split('.')
    .map((part) => {
      const [, name = part, index] = /^([^[]+)(?:\[(\d+)\])?$/.exec(part) ?? []
      const label = FIELD_LABELS[name] ?? sentenceCase(name.replaceAll('_', ' '))
      return index === undefined ? label : `${label}, line ${Number(index) + 1}`
    })
    .join(': ')
}

const sentenceCase = (words: string) => words.charAt(0).toUpperCase() + words.slice(1)

/**
 * A DRF error body in lines a person reads: `detail`; or each field's messages after the field's
 * label (`non_field_errors` need none); nested field errors (a line of a sale) under their path; or
 * a bare text.
 */
export function plainErrorLines(body: unknown, path = ''): string[] {
  if (typeof body === 'string') return body === '' ? [] : [body]
  if (body === null || typeof body !== 'object') return []
  if (Array.isArray(body))
    return body.flatMap((item, i) =>
      typeof item === 'string'
        ? [path === '' ? item : `${fieldLabel(path)}: ${item}`]
        : plainErrorLines(item, `${path}[${i}]`),
    )
  if ('detail' in body && typeof body.detail === 'string') return [body.detail]
  return Object.entries(body).flatMap(([field, value]) => {
    if (field === 'non_field_errors') return plainErrorLines(value, path)
    return plainErrorLines(value, path === '' ? field : `${path}.${field}`)
  })
}

/**
 * What the desk says when the box itself failed (a 5xx): a plain line, and the request's id (its
 * first eight characters, enough to find its line in the box's log) for whoever looks into it.
 */
export function serverFailureLine(status: number, requestId: string | null): string {
  const what =
    status === 503
      ? 'The appliance cannot save right now (its disk may be full): nothing was recorded. Try again in a minute.'
      : 'Something went wrong on the appliance. Try again; if it happens again, tell the manager.'
  return requestId === null ? what : `${what} (Reference ${requestId.slice(0, 8)})`
}

import { loadOrganization, organizationToday } from '../organization/queries.ts'
import type { Static } from 'elysia'
import { gymExists } from '../gyms/queries.ts'
import { barcodeTaken, insertCustomer, updateCustomer } from './queries.ts'
import type { CustomerWrite } from './schema.ts'
import type { Insertable } from 'kysely'
import type { Customer, CustomerTable } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { messages, ValidationError, type FieldErrorCollector } from '../../http/errors.ts'
import { lookUpReferenced } from '../../http/references.ts'
import { isUri, type CheckedBody } from '../../http/validation.ts'
import { isCountryCode } from '../../lib/countries.ts'
import { localDate } from '../../lib/local-time.ts'
import { toFlag } from '../../db/flags.ts'

type CustomerInput = Static<typeof CustomerWrite>

export const barcodeTakenMessage = messages.unique('customer', 'barcode')

/** "" and null both mean "none" for the optional unique-or-nullable columns. */
const noneIfBlank = (value: string | null | undefined) => (value === '' ? null : value)

/** The earliest birthday taken: an older one is a typing slip, not a living customer. */
export const OLDEST_BIRTHDAY = '1900-01-01'

/**
 * What a customer's rules look up beyond the body: the organization's today, whether a barcode is
 * another customer's, whether a gym exists. A request asks the database (`databaseLookups`); the
 * spreadsheet import asks sets it read once for the whole file (import-rules.ts).
 */
export interface CustomerLookups {
  today(): Promise<string>
  barcodeTaken(barcode: string, exceptId?: number): Promise<boolean>
  gymExists(id: number): Promise<boolean>
}

export const databaseLookups = (deps: Pick<Deps, 'db' | 'clock'>): CustomerLookups => ({
  today: () => organizationToday(deps),
  barcodeTaken: (barcode, exceptId) => barcodeTaken(deps.db, barcode, exceptId),
  gymExists: (id) => gymExists(deps.db, id),
})

/**
 * Rules that need the database or a list, shared by create, update and the spreadsheet import;
 * `existing` when updating.
 */
export async function checkCustomerInput(
  lookups: CustomerLookups,
  input: Partial<CustomerInput>,
  errors: FieldErrorCollector,
  existing?: Customer,
): Promise<void> {
  // A birthday is a day already lived in the organization's zone, and in living memory.
  if (input.birthday !== undefined) {
    const today = await lookups.today()
    if (input.birthday > today) errors.add('birthday', messages.max(today))
    else if (input.birthday < OLDEST_BIRTHDAY) errors.add('birthday', messages.min(OLDEST_BIRTHDAY))
  }
  const barcode = noneIfBlank(input.barcode)
  if (barcode && (await lookups.barcodeTaken(barcode, existing?.id)))
    errors.add('barcode', barcodeTakenMessage)
  await lookUpReferenced(errors, 'home_location_id', input.home_location_id, lookups.gymExists)
  const country = input.address_country
  if (country !== undefined && country !== '' && !isCountryCode(country)) {
    errors.add('address_country', messages.choice(country))
  }
  // The schema's pattern (http or https in any case, no space) lets through what is still no URL, such as a
  // broken escape ("http://t%OY"); the door's look-up shows this URL as a `uri`.
  const image = input.profile_image_url
  if (image !== undefined && image !== '' && !isUri(image)) errors.add('profile_image_url', messages.url)
}

/** The writable columns from a request body; fields not sent stay undefined (left as they are). */
function customerChanges(input: Partial<CustomerInput>) {
  return {
    first_name: input.first_name,
    last_name: input.last_name,
    preferred_name: input.preferred_name,
    email: noneIfBlank(input.email),
    telephone: input.telephone,
    birthday: input.birthday,
    barcode: noneIfBlank(input.barcode),
    is_active: toFlag(input.is_active),
    home_location_id: input.home_location_id,
    address_street_1: input.address_street_1,
    address_street_2: input.address_street_2,
    address_city: input.address_city,
    address_state: input.address_state,
    address_postcode: input.address_postcode,
    address_country: input.address_country?.toUpperCase(),
    profile_image_url: input.profile_image_url,
  }
}

/**
 * Two requests may pass the barcode check together; the UNIQUE index stops the second, and it gets
 * the same 400 as if the check had caught it.
 */
async function withUniqueBarcode<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string }
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' && message?.includes('customers.barcode')) {
      throw ValidationError.field('barcode', barcodeTakenMessage)
    }
    throw error
  }
}

export async function createCustomer(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<CustomerInput>,
): Promise<number> {
  await checkCustomerInput(databaseLookups(deps), body.fields, body.errors)
  const row = newCustomerRow(body.valid(), deps.clock.now().toISOString())
  return withUniqueBarcode(() => insertCustomer(deps.db, row))
}

/** The row a new customer is stored as, from a body that passed every rule; `now` its timestamps. */
export function newCustomerRow(input: CustomerInput, now: string): Insertable<CustomerTable> {
  const changes = customerChanges(input)
  return {
    first_name: input.first_name,
    last_name: input.last_name,
    preferred_name: changes.preferred_name ?? '',
    email: changes.email ?? null,
    telephone: changes.telephone ?? '',
    birthday: input.birthday,
    barcode: changes.barcode ?? null,
    is_active: changes.is_active ?? 1,
    home_location_id: changes.home_location_id ?? null,
    address_street_1: changes.address_street_1 ?? '',
    address_street_2: changes.address_street_2 ?? '',
    address_city: changes.address_city ?? '',
    address_state: changes.address_state ?? '',
    address_postcode: changes.address_postcode ?? '',
    address_country: changes.address_country ?? '',
    profile_image_url: changes.profile_image_url ?? '',
    first_check_in_timestamp: null,
    created_at: now,
    updated_at: now,
  }
}

/** PUT/PATCH. Deactivating (`is_active: false`) is how a customer is removed: their history stays. */
export async function changeCustomer(
  deps: Pick<Deps, 'db' | 'clock'>,
  customer: Customer,
  body: CheckedBody<Partial<CustomerInput>>,
): Promise<void> {
  await checkCustomerInput(databaseLookups(deps), body.fields, body.errors, customer)
  const changes = customerChanges(body.valid())
  await withUniqueBarcode(() =>
    updateCustomer(deps.db, customer.id, { ...changes, updated_at: deps.clock.now().toISOString() }),
  )
}

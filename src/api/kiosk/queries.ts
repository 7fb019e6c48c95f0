import type { Db } from '../../db/connection.ts'
import { TELEPHONE_DIGITS } from '../customers/queries.ts'

/* The kiosk's statements: customers' kiosk PINs (table customer_kiosk_pins, migration 0028). */

/** Fewer digits than this must be the whole number; with this many, a number may also end with them. */
export const ENDING_DIGITS = 7

/** The customer's telephone, or undefined when there is no such customer. */
export const getCustomerTelephone = (db: Db, customerId: number) =>
  db
    .selectFrom('customers')
    .select(['id', 'telephone', 'is_active'])
    .where('id', '=', customerId)
    .executeTakeFirst()

export const hasKioskPin = async (db: Db, customerId: number): Promise<boolean> =>
  (await db
    .selectFrom('customer_kiosk_pins')
    .select('customer_id')
    .where('customer_id', '=', customerId)
    .executeTakeFirst()) !== undefined

/** Sets (or replaces) the customer's PIN hash. */
export async function putKioskPin(db: Db, customerId: number, pinHash: string, setAt: string): Promise<void> {
  await db
    .insertInto('customer_kiosk_pins')
    .values({ customer_id: customerId, pin_hash: pinHash, set_at: setAt })
    .onConflict((oc) => oc.column('customer_id').doUpdateSet({ pin_hash: pinHash, set_at: setAt }))
    .execute()
}

/** Removes the customer's PIN; false when there was none. */
export async function deleteKioskPin(db: Db, customerId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('customer_kiosk_pins')
    .where('customer_id', '=', customerId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) === 1
}

/**
 * The active customers with a kiosk PIN whose telephone is these digits, or ends with them when
 * `ENDING_DIGITS` or more are given (a number typed without its country code): a family sharing a
 * phone are several rows, and their PINs tell them apart.
 */
export const listKioskPinHolders = (db: Db, digits: string) =>
  db
    .selectFrom('customer_kiosk_pins')
    .innerJoin('customers', 'customers.id', 'customer_kiosk_pins.customer_id')
    .select(['customers.id as customer_id', 'customer_kiosk_pins.pin_hash'])
    .where('customers.is_active', '=', 1)
    .where((eb) =>
      digits.length >= ENDING_DIGITS
        ? eb.or([eb(TELEPHONE_DIGITS, '=', digits), eb(TELEPHONE_DIGITS, 'like', `%${digits}`)])
        : eb(TELEPHONE_DIGITS, '=', digits),
    )
    .orderBy('customers.id')
    .execute()

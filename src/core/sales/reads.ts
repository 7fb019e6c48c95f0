import type { Db } from '../../db/connection.ts'

/*
 * What checking a sale reads of other rooms' rows: the products its lines sell, the customer's
 * memberships, credits and vouchers, the discounts, tax rates and the organization's zone. Each
 * reads one table by its key, with the columns a sale uses.
 */

/** The terms every product is sold on (domain/products.ts), as its row holds them. */
const SALE_TERMS = ['price_cents', 'tax_rate_id', 'revenue_account_code'] as const

export const getMembershipTypeForSale = (db: Db, id: number) =>
  db
    .selectFrom('membership_types')
    .select(['id', 'name', 'status', 'purchase_type', 'interval', 'is_group', ...SALE_TERMS])
    .where('id', '=', id)
    .executeTakeFirst()

export const getEntryPassTypeForSale = (db: Db, id: number) =>
  db
    .selectFrom('entry_pass_types')
    .select(['id', 'name', 'status', 'number_of_entries', 'valid_days', ...SALE_TERMS])
    .where('id', '=', id)
    .executeTakeFirst()

export const getVoucherPackForSale = (db: Db, id: number) =>
  db
    .selectFrom('voucher_packs')
    .select(['id', 'name', 'status', 'event_type_id', 'number_of_uses', 'valid_days', ...SALE_TERMS])
    .where('id', '=', id)
    .executeTakeFirst()

export const getEventForSale = (db: Db, id: number) =>
  db
    .selectFrom('events')
    .select(['id', 'name', 'event_type_id', 'is_cancelled', ...SALE_TERMS])
    .where('id', '=', id)
    .executeTakeFirst()

export const getEventTypeForSale = (db: Db, id: number) =>
  db.selectFrom('event_types').select(['id', 'name', 'status']).where('id', '=', id).executeTakeFirst()

/** A customer's membership as a renewal reads it: whose it is, where it stands, what it bills. */
export const getMembershipForRenewal = (db: Db, id: number) =>
  db
    .selectFrom('customer_memberships')
    .select([
      'id',
      'owner_id',
      'membership_type_id',
      'status',
      'start_date',
      'end_date',
      'billing_amount_cents',
    ])
    .where('id', '=', id)
    .executeTakeFirst()

export async function getTaxRateBasisPoints(db: Db, id: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('tax_rates')
    .select('rate_basis_points')
    .where('id', '=', id)
    .executeTakeFirst()
  return row?.rate_basis_points
}

export async function customerExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('customers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}

/** The customer's own credit, as a payment draws on it. */
export const getCustomerCredit = (db: Db, customerId: number, id: number) =>
  db
    .selectFrom('customer_credits')
    .select(['id', 'is_removed', 'expiry_date', 'amount_remaining_cents'])
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst()

/** The customer's own event voucher, as a payment uses it. */
export const getCustomerVoucher = (db: Db, customerId: number, id: number) =>
  db
    .selectFrom('customer_event_vouchers')
    .select(['id', 'is_removed', 'expiry_date', 'number_of_uses_remaining'])
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst()

export const findDiscountForSale = (db: Db, code: string) =>
  db
    .selectFrom('discounts')
    .select([
      'id',
      'code',
      'name',
      'display_name',
      'association_id',
      'is_active',
      'percent_off_hundredths',
      'amount_off_cents',
    ])
    .where('code', '=', code)
    .executeTakeFirst()

export async function getOrganizationZone(db: Db): Promise<string> {
  const row = await db.selectFrom('organization').select('time_zone').where('id', '=', 1).executeTakeFirst()
  if (!row)
    throw new Error('the database has no organization: run `belay migrate` and start `belay serve` once')
  return row.time_zone
}

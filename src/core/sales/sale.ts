import type { Insertable } from 'kysely'
import type { PaymentStatus, PaymentTable } from '../../db/schema.ts'
import { priceInvoice, type DiscountTerms } from '../../domain/invoice-money.ts'
import type { RenewableMembership } from '../memberships/renew.ts'
import type { SoldEntryPassType, SoldMembershipType, SoldVoucherPack } from './grants.ts'

/*
 * A sale once checked, as posting records it: every reference resolved, every amount in cents.
 */

/** What every line charges, whatever it sells. */
export interface LineCharge {
  description: string
  quantity: number
  unitPriceCents: number
  taxRateId: number | null
  taxRateBasisPoints: number
  revenueAccountCode: string
}

/** What a line grants the customer, by its purchase type. */
export type LineGrant =
  | { purchaseType: 'GEN' }
  /** A membership of the type for the customer, from `startDate`, covering `memberIds` (default the customer) */
  | {
      purchaseType: 'MIN'
      membershipType: SoldMembershipType
      startDate: string
      memberIds: readonly number[] | undefined
    }
  /**
   * The customer's recurring membership renewed, as read when the sale was checked; the period it
   * pays starts at that next bill date (its start date when none was on record)
   */
  | {
      purchaseType: 'MRE'
      renewal: RenewableMembership & { membership_type_id: number; period_start: string }
    }
  /** Passes of the type, one per quantity */
  | { purchaseType: 'EPA'; entryPassType: SoldEntryPassType }
  /** The customer booked on the event */
  | { purchaseType: 'BOO'; eventId: number }
  /** The pack's voucher */
  | { purchaseType: 'VPO'; voucherPack: SoldVoucherPack }
  /** A voucher of the event type, one use per quantity */
  | { purchaseType: 'EVV'; eventTypeId: number }
  /** A code that grants whoever redeems it the product */
  | {
      purchaseType: 'GIF'
      gift: { entryPassTypeId: number } | { voucherPackId: number } | { membershipTypeId: number }
    }

export type SaleLine = LineCharge & LineGrant

export interface SaleDiscount {
  id: number
  code: string
  name: string
  display_name: string
  association_id: number | null
  terms: DiscountTerms
}

/** A payment as recorded: every column but the invoice and the times, which posting fills in. */
export type SalePayment = Omit<Insertable<PaymentTable>, 'invoice_id' | 'created_at' | 'updated_at'> & {
  status: PaymentStatus
  amount_cents: number
}

export interface SaleIdempotency {
  key: string
  requestDigest: string
}

export interface Sale {
  customerId: number | null
  gymId: number
  staffUserId: number
  description: string
  discounts: SaleDiscount[]
  lines: SaleLine[]
  payments: SalePayment[]
  /** The Idempotency-Key the sale was sent with, and a digest of the request that carried it */
  idempotency?: SaleIdempotency
}

/** The sale's prices, as the invoice will hold them. */
export const priceSale = (sale: Pick<Sale, 'lines' | 'discounts'>) =>
  priceInvoice(
    sale.lines.map((line) => ({
      unitPriceCents: line.unitPriceCents,
      quantity: line.quantity,
      taxRateBasisPoints: line.taxRateBasisPoints,
    })),
    sale.discounts.map((discount) => discount.terms),
  )

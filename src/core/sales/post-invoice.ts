import type { Insertable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { LineItemPurchaseType, PaymentStatus, PaymentTable } from '../../db/schema.ts'
import { localDate } from '../../lib/local-time.ts'
import { newGiftCode } from '../../lib/secrets.ts'
import { renewMembership, type RenewableMembership } from '../memberships/renew.ts'
import { startMembership } from '../memberships/start.ts'
import { priceInvoice, type DiscountTerms } from '../../domain/invoice-money.ts'
import {
  drawOnCredit,
  findInvoiceByIdempotencyKey,
  insertEntryPasses,
  insertEventVoucher,
  insertGift,
  insertInvoice,
  insertInvoiceDiscounts,
  insertLineItem,
  insertPayments,
  insertReservation,
  useVoucher,
} from './queries.ts'
import {
  entryPassGranted,
  membershipGranted,
  voucherGranted,
  type SoldEntryPassType,
  type SoldMembershipType,
  type SoldVoucherPack,
} from './grants.ts'

/**
 * Posting an invoice: the invoice, its discounts, its lines with what each grants, and its payments,
 * in one transaction, so a sale is recorded whole or not at all. The caller has checked every
 * reference and amount; this prices the lines and writes.
 */

export interface SaleLine {
  purchaseType: LineItemPurchaseType
  description: string
  quantity: number
  unitPriceCents: number
  taxRateId: number | null
  taxRateBasisPoints: number
  revenueAccountCode: string
  /** EPA: the type of the passes it issues, one per quantity */
  entryPassType?: SoldEntryPassType
  /** MIN: the membership type it starts for the customer, from `startDate`, covering `memberIds` */
  membershipType?: SoldMembershipType
  startDate?: string
  memberIds?: readonly number[]
  /**
   * MRE: the customer's recurring membership it renews, as read when the sale was checked; the
   * period it pays starts at that next bill date (its start date when none was on record)
   */
  renewal?: RenewableMembership & { membership_type_id: number; period_start: string }
  /** GIF: the product the gift's code grants whoever redeems it */
  gift?: { entryPassTypeId: number } | { voucherPackId: number } | { membershipTypeId: number }
  /** BOO: the event it books the customer on */
  eventId?: number
  /** VPO: the pack whose voucher it issues the customer */
  voucherPack?: SoldVoucherPack
  /** EVV: the event type of the voucher it issues the customer, one use per quantity */
  eventTypeId?: number
}

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

export interface SaleIdempotency {
  key: string
  requestDigest: string
}

/**
 * A credit or voucher a payment draws on had too little left when the sale was posted (another
 * sale drew on it first): the sale is not recorded.
 */
export class PaymentSourceSpent extends Error {
  constructor(readonly paymentIndex: number) {
    super(`payment ${paymentIndex} draws on a credit or voucher with too little left`)
  }
}

/**
 * A membership an MRE line renews was renewed or changed after the sale was checked (by another
 * sale, or another line of this one): the sale is not recorded.
 */
export class MembershipChanged extends Error {
  constructor(readonly lineIndex: number) {
    super(`line ${lineIndex} renews a membership that changed after the sale was checked`)
  }
}

/**
 * The staff user already recorded a sale with this Idempotency-Key (another request with the same
 * key was posted first): nothing more is recorded, and the caller answers with that sale.
 */
export class IdempotencyKeyUsed extends Error {
  constructor(
    readonly invoiceId: number,
    readonly requestDigest: string | null,
  ) {
    super(`the Idempotency-Key already recorded invoice ${invoiceId}`)
  }
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

export async function postInvoice(
  deps: { db: Db; clock: { now(): Date } },
  sale: Sale,
  zone: string,
): Promise<number> {
  const now = deps.clock.now()
  const at = now.toISOString()
  const today = localDate(now, zone)
  const priced = priceSale(sale)
  // A membership bought or renewed with a payment still at the terminal waits for that payment.
  const processing = sale.payments.some((payment) => payment.status === 'PRO')
  return deps.db.transaction().execute(async (trx) => {
    if (sale.idempotency) {
      // Read inside the transaction, which holds the one connection: a sale with the same key
      // posted at the same instant is either already here or waits for this one to commit.
      const recorded = await findInvoiceByIdempotencyKey(trx, sale.staffUserId, sale.idempotency.key)
      if (recorded) throw new IdempotencyKeyUsed(recorded.id, recorded.request_digest)
    }
    const invoiceId = await insertInvoice(trx, {
      customer_id: sale.customerId,
      gym_id: sale.gymId,
      staff_user_id: sale.staffUserId,
      description: sale.description,
      idempotency_key: sale.idempotency?.key ?? null,
      request_digest: sale.idempotency?.requestDigest ?? null,
      created_at: at,
      updated_at: at,
    })
    await insertInvoiceDiscounts(
      trx,
      sale.discounts.map((discount, i) => ({
        invoice_id: invoiceId,
        position: i,
        discount_id: discount.id,
        code: discount.code,
        name: discount.name,
        display_name: discount.display_name,
        association_id: discount.association_id,
        amount_cents: priced.discountCents[i]!,
      })),
    )
    for (const [i, line] of sale.lines.entries()) {
      const price = priced.lines[i]!
      const customerId = sale.customerId
      const reservationId =
        line.eventId !== undefined && customerId !== null
          ? await insertReservation(trx, {
              event_id: line.eventId,
              customer_id: customerId,
              includes_entry: 1,
              is_cancelled: 0,
              checked_in: 0,
              created_at: at,
              updated_at: at,
            })
          : null
      const type = line.membershipType
      const membershipId =
        type && customerId !== null
          ? await startMembership(trx, {
              row: membershipGranted(
                type,
                { customerId, staffUserId: sale.staffUserId, now, zone },
                {
                  startDate: line.startDate!,
                  status: processing ? 'IPP' : 'ACT',
                  billingLocationId: sale.gymId,
                },
              ),
              memberIds: line.memberIds ?? [customerId],
              addOnIds: [],
              today,
              changedById: sale.staffUserId,
            })
          : null
      const renewal = line.renewal
      if (renewal) {
        const by = { today, at, changedById: sale.staffUserId }
        if (!(await renewMembership(trx, renewal, processing ? 'processing' : 'paid', by)))
          throw new MembershipChanged(i)
      }
      // A voucher pack's voucher has the pack's uses and validity; a single voucher one use per
      // quantity, and no expiry, as an event type has no validity of its own.
      const voucherTerms =
        line.voucherPack ??
        (line.eventTypeId === undefined
          ? undefined
          : { event_type_id: line.eventTypeId, number_of_uses: line.quantity, valid_days: null })
      const voucherId =
        voucherTerms && customerId !== null
          ? await insertEventVoucher(
              trx,
              voucherGranted(voucherTerms, { customerId, staffUserId: sale.staffUserId, now, zone }),
            )
          : null
      const lineId = await insertLineItem(trx, {
        invoice_id: invoiceId,
        position: i,
        purchase_type: line.purchaseType,
        description: line.description,
        quantity: line.quantity,
        unit_price_cents: line.unitPriceCents,
        discount_cents: price.discountCents,
        net_cents: price.netCents,
        tax_rate_id: line.taxRateId,
        tax_rate_basis_points: line.taxRateBasisPoints,
        tax_cents: price.taxCents,
        revenue_account_code: line.revenueAccountCode,
        membership_type_id: type?.id ?? renewal?.membership_type_id ?? null,
        entry_pass_type_id: line.entryPassType?.id ?? null,
        event_id: line.eventId ?? null,
        voucher_pack_id: line.voucherPack?.id ?? null,
        customer_membership_id: membershipId ?? renewal?.id ?? null,
        reservation_id: reservationId,
        customer_event_voucher_id: voucherId,
        period_start: renewal?.period_start ?? null,
      })
      if (line.gift) {
        await insertGift(trx, {
          code: newGiftCode(),
          invoice_line_item_id: lineId,
          entry_pass_type_id: 'entryPassTypeId' in line.gift ? line.gift.entryPassTypeId : null,
          voucher_pack_id: 'voucherPackId' in line.gift ? line.gift.voucherPackId : null,
          membership_type_id: 'membershipTypeId' in line.gift ? line.gift.membershipTypeId : null,
          purchaser_id: customerId,
          redeemed_by_id: null,
          redeemed_at: null,
          customer_entry_pass_id: null,
          customer_event_voucher_id: null,
          customer_membership_id: null,
          created_at: at,
        })
      }
      const passType = line.entryPassType
      if (passType && sale.customerId !== null) {
        const grant = { customerId: sale.customerId, staffUserId: sale.staffUserId, now, zone }
        const pass = entryPassGranted(passType, grant, { acquiredVia: 'purchase', invoiceId })
        await insertEntryPasses(
          trx,
          Array.from({ length: line.quantity }, () => pass),
        )
      }
    }
    for (const [i, payment] of sale.payments.entries()) {
      const drawn =
        payment.credit_id != null
          ? await drawOnCredit(trx, payment.credit_id, payment.amount_cents, at)
          : payment.voucher_id != null
            ? await useVoucher(trx, payment.voucher_id, at)
            : true
      if (!drawn) throw new PaymentSourceSpent(i)
    }
    await insertPayments(
      trx,
      sale.payments.map((payment) => ({ ...payment, invoice_id: invoiceId, created_at: at, updated_at: at })),
    )
    return invoiceId
  })
}

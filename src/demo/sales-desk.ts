import { giftCodeFrom } from '../lib/secrets.ts'
import { Calendar } from './calendar.ts'
import { type DemoContext, stream } from './context.ts'
import type { Person } from './customers.ts'
import type { Catalog, DemoEntryPassType, DemoVoucherPack, Terms } from './products.ts'
import type { Random } from './random.ts'
import {
  deskMsBy,
  deskStaffAt,
  type Ledger,
  type Sale,
  type SaleLine,
  type SoldGift,
} from './sales-ledger.ts'
import type { Payments } from './sales-payments.ts'
import { DiscountCodes, Regulars, Shelf } from './sales-retail.ts'

/**
 * The sales behind what customers hold: each purchased entry pass and event voucher was sold at
 * the desk, each pass given as a gift was a gift code someone bought earlier and the owner
 * redeemed, some vouchers came the same way, each booking of a priced class was paid (online or
 * at the desk; a cancelled one refunded), and each credit that has been drawn on paid part of a
 * sale. Besides those, gift codes bought in the last months that nobody has redeemed yet.
 */
export function sellHoldings(
  ctx: DemoContext,
  catalog: Catalog,
  people: readonly Person[],
  ledger: Ledger,
  payments: Payments,
): void {
  const rng = stream(ctx, 'sales-desk')
  const { cal, rows } = ctx
  const byId = new Map(people.map((p) => [p.id, p]))
  const regulars = new Regulars(people)
  const discounts = new DiscountCodes(catalog, cal)
  const codes = new Set<string>()
  const homeGym = (p: Person) => (p.homeGym ?? ctx.gyms[0]!).id
  const deskSale = (fields: {
    atMs: number
    day: number
    customer: Person
    gymId: number
    staffUserId?: number
    lines: SaleLine[]
  }): Sale =>
    ledger.record({
      atMs: fields.atMs,
      day: fields.day,
      customerId: fields.customer.id,
      gymId: fields.gymId,
      staffUserId: fields.staffUserId ?? rng.pick(deskStaffAt(ctx, fields.gymId)),
      description: 'Front desk',
      lines: fields.lines,
      discounts: discounts.draw(rng, fields.day),
    })
  /** A gift code for `product`, bought by `buyer` on `day`; `redeemed` once someone has. */
  const sellGift = (
    buyer: Person,
    day: number,
    product: { pass: DemoEntryPassType } | { pack: DemoVoucherPack },
    redeemed: SoldGift['redeemed'],
  ) => {
    const terms = 'pass' in product ? product.pass.terms : product.pack.terms
    const gift: SoldGift = {
      code: newCode(rng, codes),
      entryPassTypeId: 'pass' in product ? product.pass.id : null,
      voucherPackId: 'pack' in product ? product.pack.id : null,
      redeemed,
    }
    const atMs = deskMsBy(rng, cal, day)
    const line: SaleLine = { purchaseType: 'GIF', terms, quantity: 1, gift }
    const sale = deskSale({ atMs, day, customer: buyer, gymId: homeGym(buyer), lines: [line] })
    payments.settleAtDesk(sale, atMs, day)
  }

  const passTypes = new Map(catalog.entryPasses.map((t) => [t.id, t]))
  for (const pass of rows.customer_entry_passes) {
    if (pass.acquired_via !== 'purchase' && pass.acquired_via !== 'gift') continue
    const type = passTypes.get(pass.entry_pass_type_id)!
    const atMs = Date.parse(pass.created_at!)
    const day = cal.dayOf(atMs)
    const owner = byId.get(pass.owner_id)!
    const gymId = homeGym(owner)
    const staff = rng.pick(deskStaffAt(ctx, gymId))
    pass.created_by_id = staff
    const buyer = byId.get(pass.purchaser_id!)!
    if (pass.acquired_via === 'gift') {
      // Bought for the owner a few weeks before the owner came in with the code.
      const sold = day - rng.int(1, 60)
      existedBy(buyer, sold)
      sellGift(
        buyer,
        sold,
        { pass: type },
        { customerId: owner.id, atMs, entryPassId: pass.id!, eventVoucherId: null },
      )
      continue
    }
    // A parent buys a child's pass: the parent is the sale's customer.
    existedBy(buyer, day)
    const line: SaleLine = {
      purchaseType: 'EPA',
      terms: type.terms,
      quantity: 1,
      entryPassTypeId: type.id,
      pass,
    }
    const sale = deskSale({ atMs, day, customer: buyer, gymId, staffUserId: staff, lines: [line] })
    payments.settleAtDesk(sale, atMs, day, true)
  }

  const packs = new Map(catalog.voucherPacks.filter((p) => p.status === 'ACT').map((p) => [p.eventTypeId, p]))
  for (const voucher of rows.customer_event_vouchers) {
    const pack = packs.get(voucher.event_type_id)!
    const atMs = Date.parse(voucher.created_at!)
    const day = cal.dayOf(atMs)
    const owner = byId.get(voucher.customer_id)!
    // Some were a gift: a code a customer bought a few weeks earlier, redeemed by the owner.
    const sold = day - rng.int(1, 60)
    const giver = rng.chance(0.15) ? regulars.on(rng, sold) : null
    if (giver && giver !== owner) {
      const redeemed = { customerId: owner.id, atMs, entryPassId: null, eventVoucherId: voucher.id! }
      sellGift(giver, sold, { pack }, redeemed)
      continue
    }
    const line: SaleLine = {
      purchaseType: 'VPO',
      terms: pack.terms,
      quantity: 1,
      voucherPackId: pack.id,
      customerEventVoucherId: voucher.id!,
    }
    const sale = deskSale({
      atMs,
      day,
      customer: owner,
      gymId: pack.gymId,
      staffUserId: voucher.created_by_id!,
      lines: [line],
    })
    payments.settleAtDesk(sale, atMs, day)
  }

  // Gift codes bought in the last half year that are still to be redeemed.
  const giftable = [
    ...catalog.entryPasses.filter((t) => t.status === 'ACT').map((pass) => ({ pass })),
    ...catalog.voucherPacks.filter((p) => p.status === 'ACT').map((pack) => ({ pack })),
  ]
  for (let n = Math.round(people.length / 100); n > 0; n--) {
    const day = cal.today - rng.int(1, 180)
    const buyer = regulars.on(rng, day)
    if (buyer) sellGift(buyer, day, rng.pick(giftable), null)
  }

  sellBookings(ctx, catalog, ledger, payments, rng)
  spendCredits(ctx, catalog, ledger, payments, rng, byId)
}

/**
 * Each booking of a priced class: online through a payment link, or at the desk when booked in
 * its hours. A cancelled booking, or a booking of a cancelled class, is refunded on a later day.
 */
function sellBookings(ctx: DemoContext, catalog: Catalog, ledger: Ledger, payments: Payments, rng: Random) {
  const { cal, rows } = ctx
  const events = new Map(rows.events.map((e) => [e.id!, e]))
  const typeNames = new Map(catalog.eventTypes.map((t) => [t.id, t.name]))
  for (const reservation of rows.reservations) {
    const event = events.get(reservation.event_id)!
    if (!event.price_cents) continue
    const atMs = Date.parse(reservation.created_at!)
    const day = cal.dayOf(atMs)
    const minute = (atMs - cal.instantMs(day, 0)) / 60_000
    const atDesk = minute >= 9 * 60 && minute < 22 * 60 && rng.chance(0.35)
    const terms: Terms = {
      description: event.name || typeNames.get(event.event_type_id)!,
      unitPriceCents: event.price_cents,
      taxRateId: null,
      taxRateBasisPoints: 0,
      revenueAccountCode: event.revenue_account_code!,
    }
    const sale = ledger.record({
      atMs,
      day,
      customerId: reservation.customer_id,
      gymId: event.gym_id,
      staffUserId: atDesk ? rng.pick(deskStaffAt(ctx, event.gym_id)) : null,
      description: atDesk ? 'Front desk' : 'Online booking',
      lines: [
        { purchaseType: 'BOO', terms, quantity: 1, eventId: event.id!, reservationId: reservation.id! },
      ],
    })
    if (atDesk) payments.settleAtDesk(sale, atMs, day)
    else payments.online(sale, { status: 'COM', atMs, day }, sale.priced.totalCents, terms.description)
    if (!reservation.is_cancelled || day >= cal.today) continue
    const refundDay = rng.int(day + 1, cal.today)
    const reason = event.is_cancelled ? 'Class cancelled by the gym' : 'Booking cancelled'
    for (const payment of sale.payments)
      if (payment.row.status === 'COM')
        payments.refund(payment, {
          atMs: deskMsBy(rng, cal, refundDay),
          amountCents: payment.row.amount_cents,
          reason,
          staffUserId: ctx.staff.managerId,
        })
  }
}

/**
 * What each credit paid for: a credit with less remaining than it started with paid that much
 * of one sale at the desk (retail enough to use it), the rest by card or cash, before it expired.
 * A removed credit was taken away unused.
 */
function spendCredits(
  ctx: DemoContext,
  catalog: Catalog,
  ledger: Ledger,
  payments: Payments,
  rng: Random,
  byId: Map<number, Person>,
) {
  const { cal, rows } = ctx
  const shelf = new Shelf(catalog)
  for (const credit of rows.customer_credits) {
    const used = credit.amount_total_cents - credit.amount_remaining_cents!
    if (used === 0 || credit.is_removed) continue
    const issuedMs = Date.parse(credit.created_at!)
    const issued = cal.dayOf(issuedMs)
    const until = credit.expiry_date ? Math.min(cal.today, Calendar.toDay(credit.expiry_date)) : cal.today
    const day = rng.int(issued, until)
    const atMs = Math.max(issuedMs, deskMsBy(rng, cal, day))
    const lines: SaleLine[] = []
    let gross = 0
    while (gross < used) {
      const line = shelf.line(rng)
      lines.push(line)
      gross += line.terms.unitPriceCents * line.quantity
    }
    const customer = byId.get(credit.customer_id)!
    const gymId = (customer.homeGym ?? ctx.gyms[0]!).id
    const sale = ledger.record({
      atMs,
      day,
      customerId: customer.id,
      gymId,
      staffUserId: rng.pick(deskStaffAt(ctx, gymId)),
      description: 'Front desk',
      lines,
    })
    const attempt = { status: 'COM' as const, atMs, day }
    payments.credit(sale, attempt, used, credit.id!)
    const rest = sale.priced.totalCents - used
    if (rest > 0) payments.atDesk(sale, attempt, rest, rng.chance(0.7) ? 'card' : 'cash')
  }
}

/**
 * Moves a buyer's record back to `day` if it was made later. Not joinedBy: buying for someone
 * else is not using the gym, so whether the buyer ever climbed stays as it was.
 */
function existedBy(buyer: Person, day: number): void {
  buyer.createdDay = Math.min(buyer.createdDay, day)
}

/** A gift code no other gift has, drawn from the demo's stream. */
function newCode(rng: Random, taken: Set<string>): string {
  for (;;) {
    const code = giftCodeFrom(Array.from({ length: 12 }, () => rng.int(0, 255)))
    if (!taken.has(code)) {
      taken.add(code)
      return code
    }
  }
}

/**
 * The demo's sales: consistent with what customers hold (a membership's invoices follow its
 * history, each sold pass, voucher and booking has its sale, redeemed gifts their grant, credits
 * what they paid), priced with the invoice arithmetic POST /api/invoices/ uses, payments and
 * refunds that add up, times in the desk's hours, and the same rows for the same seed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql, type Selectable } from 'kysely'
import { seedDemoData, type DemoSummary } from '../../src/demo/index.ts'
import { openDatabase, type Connection, type Db } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import type { Database } from '../../src/db/schema.ts'
import { lineTaxCents, priceInvoice } from '../../src/domain/invoice-money.ts'
import { PAID_PAYMENT_STATUSES } from '../../src/domain/sales.ts'
import { localDate, wallClock } from '../../src/lib/local-time.ts'
import { START } from '../helpers/app.ts'

const NOW = new Date(START)
const ZONE = 'America/Denver'
const TODAY = '2026-11-22'

const open: Connection[] = []
async function seeded(seed: number): Promise<{ db: Db; summary: DemoSummary }> {
  const connection = openDatabase(':memory:')
  open.push(connection)
  await migrateToLatest(connection.db)
  return { db: connection.db, summary: await seedDemoData(connection.db, { size: 'small', seed, now: NOW }) }
}
afterAll(async () => {
  for (const c of open) await c.close()
})

const all = <
  T extends 'invoices' | 'invoice_line_items' | 'invoice_discounts' | 'payments' | 'refunds' | 'gifts',
>(
  db: Db,
  table: T,
): Promise<Selectable<Database[T]>[]> =>
  db
    .selectFrom(table as 'invoices')
    .selectAll()
    .orderBy('id')
    .execute() as Promise<never>

/** Rows grouped by a key. */
function groupBy<R, K>(rows: readonly R[], key: (row: R) => K): Map<K, R[]> {
  const groups = new Map<K, R[]>()
  for (const row of rows) {
    const group = groups.get(key(row))
    if (group) group.push(row)
    else groups.set(key(row), [row])
  }
  return groups
}

const localMinutes = (at: string) => {
  const clock = wallClock(new Date(at), ZONE)
  return clock.hour * 60 + clock.minute
}

describe("the small demo's sales", () => {
  let db: Db
  let summary: DemoSummary
  let invoices: Selectable<Database['invoices']>[]
  let lines: Selectable<Database['invoice_line_items']>[]
  let payments: Selectable<Database['payments']>[]
  let linesOf: Map<number, Selectable<Database['invoice_line_items']>[]>
  let paymentsOf: Map<number, Selectable<Database['payments']>[]>
  beforeAll(async () => {
    ;({ db, summary } = await seeded(1))
    invoices = await all(db, 'invoices')
    lines = await all(db, 'invoice_line_items')
    payments = await all(db, 'payments')
    linesOf = groupBy(lines, (l) => l.invoice_id)
    paymentsOf = groupBy(payments, (p) => p.invoice_id)
  })

  test('the same seed gives these counts, and every reference names a row', async () => {
    expect({
      invoices: summary.counts.invoices,
      invoice_line_items: summary.counts.invoice_line_items,
      invoice_discounts: summary.counts.invoice_discounts,
      payments: summary.counts.payments,
      refunds: summary.counts.refunds,
      gifts: summary.counts.gifts,
    }).toEqual({
      invoices: 1023,
      invoice_line_items: 1242,
      invoice_discounts: 13,
      payments: 1027,
      refunds: 30,
      gifts: 5,
    })
    expect(invoices).toHaveLength(summary.counts.invoices)
    const broken = await sql`PRAGMA foreign_key_check`.execute(db)
    expect(broken.rows).toEqual([])
    const on = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db)
    expect(on.rows).toEqual([{ foreign_keys: 1 }])
  })

  test('every line is priced as POST /api/invoices/ prices it: discounts spread, tax per line', async () => {
    const applied = groupBy(await all(db, 'invoice_discounts'), (d) => d.invoice_id)
    const discounts = new Map((await db.selectFrom('discounts').selectAll().execute()).map((d) => [d.id, d]))
    const rates = new Map((await db.selectFrom('tax_rates').selectAll().execute()).map((r) => [r.id, r]))
    for (const invoice of invoices) {
      const own = linesOf.get(invoice.id)!
      const used = applied.get(invoice.id) ?? []
      const priced = priceInvoice(
        own.map((l) => ({
          unitPriceCents: l.unit_price_cents,
          quantity: l.quantity,
          taxRateBasisPoints: l.tax_rate_basis_points,
        })),
        used.map((d) => {
          const terms = discounts.get(d.discount_id)!
          return terms.percent_off_hundredths !== null
            ? { percentOffHundredths: terms.percent_off_hundredths }
            : { amountOffCents: terms.amount_off_cents! }
        }),
      )
      expect(own.map((l) => [l.discount_cents, l.net_cents, l.tax_cents])).toEqual(
        priced.lines.map((l) => [l.discountCents, l.netCents, l.taxCents]),
      )
      expect(used.map((d) => d.amount_cents)).toEqual(priced.discountCents)
      for (const l of own) {
        expect(l.net_cents).toBe(l.unit_price_cents * l.quantity - l.discount_cents)
        expect(l.tax_cents).toBe(lineTaxCents(l.net_cents, l.tax_rate_basis_points))
        expect(l.tax_rate_basis_points).toBe(
          l.tax_rate_id === null ? 0 : rates.get(l.tax_rate_id)!.rate_basis_points,
        )
      }
    }
    // Both tax rates are charged, and discounts are used on a share of the sales.
    expect(new Set(lines.map((l) => l.tax_rate_basis_points))).toEqual(new Set([0, 386, 825]))
    expect(applied.size).toBeGreaterThan(invoices.length * 0.01)
  })

  test('payments never exceed the total, refunds never the payment; some invoices have a balance due', async () => {
    const refunds = groupBy(await all(db, 'refunds'), (r) => r.payment_id)
    let due = 0
    for (const invoice of invoices) {
      const total = linesOf.get(invoice.id)!.reduce((sum, l) => sum + l.net_cents + l.tax_cents, 0)
      const own = paymentsOf.get(invoice.id) ?? []
      const counted = own.filter((p) => ['COM', 'PRF', 'REF', 'PRO', 'PEN'].includes(p.status))
      expect(counted.reduce((sum, p) => sum + p.amount_cents, 0)).toBeLessThanOrEqual(total)
      const paid = own.filter((p) => (PAID_PAYMENT_STATUSES as readonly string[]).includes(p.status))
      if (paid.reduce((sum, p) => sum + p.amount_cents, 0) < total) due++
    }
    expect(due).toBeGreaterThan(0)
    for (const payment of payments) {
      const own = refunds.get(payment.id) ?? []
      expect(payment.amount_refunded_cents).toBe(own.reduce((sum, r) => sum + r.amount_cents, 0))
      expect(payment.amount_refunded_cents).toBeLessThanOrEqual(payment.amount_cents)
      const expected =
        own.length === 0
          ? payment.status
          : payment.amount_refunded_cents === payment.amount_cents
            ? 'REF'
            : 'PRF'
      expect(payment.status).toBe(expected)
      // A refund comes on a later organization-local day than its payment.
      for (const r of own)
        expect(localDate(new Date(r.created_at), ZONE) > localDate(new Date(payment.created_at), ZONE)).toBe(
          true,
        )
    }
    const refunded = payments.filter((p) => p.status === 'PRF' || p.status === 'REF')
    expect(refunded.length / payments.length).toBeGreaterThan(0.01)
    expect(refunded.length / payments.length).toBeLessThan(0.04)
    expect(refunded.some((p) => p.status === 'PRF')).toBe(true)
    const statuses = new Set(payments.map((p) => p.status))
    for (const status of ['COM', 'PRO', 'FAI', 'PRF', 'REF', 'PEN', 'CAN'])
      expect(statuses.has(status as never)).toBe(true)
    // Card payments carry the card, the processor's id and its fee.
    for (const p of payments.filter((p) => p.payment_method_type === 'CRD' && p.status === 'COM')) {
      expect(p.credit_card_last4).toMatch(/^\d{4}$/)
      expect(p.processor_fee_cents).toBeGreaterThan(0)
      expect(
        p.processor_a_payment_intent_id || p.processor_b_external_transaction_id || p.processor_c_payment_id,
      ).not.toBe('')
    }
  })

  test("every membership's initial sale is its MIN line, made with it; renewals follow its history", async () => {
    const memberships = await db.selectFrom('customer_memberships').selectAll().orderBy('id').execute()
    const changes = groupBy(
      await db
        .selectFrom('membership_status_changes')
        .selectAll()
        .where('member_customer_id', 'is', null)
        .orderBy('id')
        .execute(),
      (c) => c.customer_membership_id,
    )
    const invoiceById = new Map(invoices.map((i) => [i.id, i]))
    const byMembership = groupBy(
      lines.filter((l) => l.customer_membership_id !== null),
      (l) => l.customer_membership_id!,
    )
    for (const m of memberships) {
      const own = byMembership.get(m.id) ?? []
      const initial = own.filter((l) => l.purchase_type === 'MIN')
      expect(new Set(initial.map((l) => l.invoice_id)).size).toBe(1)
      const sale = invoiceById.get(initial[0]!.invoice_id)!
      expect(sale).toMatchObject({ customer_id: m.owner_id, created_at: m.created_at })
      expect(initial[0]).toMatchObject({ membership_type_id: m.membership_type_id })
      const renewals = own.filter((l) => l.purchase_type === 'MRE').map((l) => invoiceById.get(l.invoice_id)!)
      // Each renewal after the start, none after the membership ended or was cancelled.
      const history = changes.get(m.id)!
      const over = history.find((c) => c.to_status === 'CAN' || c.to_status === 'END')
      for (const renewal of renewals) {
        const day = localDate(new Date(renewal.created_at), ZONE)
        expect(day > m.start_date).toBe(true)
        if (over) expect(day <= over.changed_on).toBe(true)
      }
      // A renewal that failed: a FAI payment, settled the day the history says PAF.
      for (const failed of history.filter((c) => c.to_status === 'PAF')) {
        const fai = renewals
          .flatMap((r) => paymentsOf.get(r.id) ?? [])
          .filter((p) => p.status === 'FAI' && localDate(new Date(p.updated_at), ZONE) === failed.changed_on)
        expect(fai.length).toBeGreaterThan(0)
      }
      // A freeze charges its fee the day it began.
      for (const frozen of history.filter(
        (c) => (c.to_status === 'FRZ' || c.to_status === 'FPR') && c.from_status !== 'FRZ',
      )) {
        const fees = own.filter(
          (l) =>
            l.purchase_type === 'MFR' &&
            localDate(new Date(invoiceById.get(l.invoice_id)!.created_at), ZONE) === frozen.changed_on,
        )
        expect(fees.length).toBeGreaterThan(0)
      }
    }
    expect(lines.some((l) => l.purchase_type === 'MRE')).toBe(true)
    expect(lines.some((l) => l.purchase_type === 'MFR')).toBe(true)
  })

  test('each purchased pass, voucher and priced booking has its sale; redeemed gifts their grant', async () => {
    const passes = await db.selectFrom('customer_entry_passes').selectAll().execute()
    const invoiceById = new Map(invoices.map((i) => [i.id, i]))
    for (const pass of passes.filter((p) => p.acquired_via === 'purchase')) {
      const line = linesOf.get(pass.invoice_id!)!.find((l) => l.purchase_type === 'EPA')!
      expect(line.entry_pass_type_id).toBe(pass.entry_pass_type_id)
      expect(invoiceById.get(pass.invoice_id!)).toMatchObject({
        customer_id: pass.purchaser_id,
        created_at: pass.created_at,
      })
    }
    const gifts = await all(db, 'gifts')
    expect(gifts.some((g) => g.redeemed_by_id === null)).toBe(true)
    const lineById = new Map(lines.map((l) => [l.id, l]))
    for (const gift of gifts) {
      const line = lineById.get(gift.invoice_line_item_id)!
      expect(line.purchase_type).toBe('GIF')
      expect(gift.code).toMatch(/^[A-HJKMNP-Z2-9]{12}$/)
      expect(gift.purchaser_id).toBe(invoiceById.get(line.invoice_id)!.customer_id)
      if (gift.redeemed_by_id === null) {
        expect([gift.redeemed_at, gift.customer_entry_pass_id, gift.customer_event_voucher_id]).toEqual([
          null,
          null,
          null,
        ])
        continue
      }
      expect(gift.redeemed_at! > gift.created_at).toBe(true)
      const pass = passes.find((p) => p.id === gift.customer_entry_pass_id)
      const voucher = await db
        .selectFrom('customer_event_vouchers')
        .selectAll()
        .where('id', '=', gift.customer_event_voucher_id ?? 0)
        .executeTakeFirst()
      if (gift.entry_pass_type_id !== null)
        expect(pass).toMatchObject({
          acquired_via: 'gift',
          owner_id: gift.redeemed_by_id,
          purchaser_id: gift.purchaser_id,
          entry_pass_type_id: gift.entry_pass_type_id,
          created_at: gift.redeemed_at,
        })
      else expect(voucher).toMatchObject({ customer_id: gift.redeemed_by_id, created_at: gift.redeemed_at })
    }
    expect(passes.filter((p) => p.acquired_via === 'gift')).toHaveLength(
      gifts.filter((g) => g.customer_entry_pass_id !== null).length,
    )
    const vouchers = await db.selectFrom('customer_event_vouchers').select('id').execute()
    for (const v of vouchers) {
      const sold = lines.filter(
        (l) => l.purchase_type === 'VPO' && l.customer_event_voucher_id === v.id,
      ).length
      const given = gifts.filter((g) => g.customer_event_voucher_id === v.id).length
      expect(sold + given).toBe(1)
    }
    const priced = await db
      .selectFrom('reservations')
      .innerJoin('events', 'events.id', 'reservations.event_id')
      .select(['reservations.id', 'reservations.customer_id', 'reservations.created_at'])
      .where('events.price_cents', '>', 0)
      .execute()
    expect(priced.length).toBeGreaterThan(0)
    for (const r of priced) {
      const booked = lines.filter((l) => l.purchase_type === 'BOO' && l.reservation_id === r.id)
      expect(booked).toHaveLength(1)
      expect(invoiceById.get(booked[0]!.invoice_id)).toMatchObject({
        customer_id: r.customer_id,
        created_at: r.created_at,
      })
    }
  })

  test("revenue_entries holds each paid payment's and each refund's share of every line of its invoice", async () => {
    const paid: readonly string[] = PAID_PAYMENT_STATUSES
    const refunds = await all(db, 'refunds')
    const paymentById = new Map(payments.map((p) => [p.id, p]))
    const invoiceById = new Map(invoices.map((i) => [i.id, i]))
    const shares = (payment: Selectable<Database['payments']>) => {
      const invoiceLines = linesOf.get(payment.invoice_id)!
      const total = invoiceLines.reduce((sum, l) => sum + l.net_cents + l.tax_cents, 0)
      return total === 0 ? [] : invoiceLines.map((line) => ({ line, total }))
    }
    const entry = (
      at: string,
      payment: Selectable<Database['payments']>,
      refundId: number,
      lineId: number,
    ) => ({
      at,
      payment_id: payment.id,
      refund_id: refundId,
      line_id: lineId,
      gym_id: invoiceById.get(payment.invoice_id)!.gym_id,
      payment_type: payment.payment_type,
    })
    const expected = [
      ...payments
        .filter((p) => paid.includes(p.status))
        .flatMap((p) =>
          shares(p).map(({ line, total }) => ({
            ...entry(p.created_at, p, 0, line.id),
            amount: (line.net_cents * p.amount_cents) / total,
            fee: ((line.net_cents + line.tax_cents) * p.processor_fee_cents) / total,
          })),
        ),
      ...refunds.flatMap((r) => {
        const payment = paymentById.get(r.payment_id)!
        return shares(payment).map(({ line, total }) => ({
          ...entry(r.created_at, payment, r.id, line.id),
          amount: (-line.net_cents * r.amount_cents) / total,
          fee: ((line.net_cents + line.tax_cents) * r.processor_fee_cents) / total,
        }))
      }),
    ]
    const entries = await db
      .selectFrom('revenue_entries')
      .select(['at', 'payment_id', 'refund_id', 'line_id', 'gym_id', 'payment_type', 'amount', 'fee'])
      .orderBy('payment_id')
      .orderBy('refund_id')
      .orderBy('line_id')
      .execute()
    const order = (a: { payment_id: number; refund_id: number; line_id: number }, b: typeof a) =>
      a.payment_id - b.payment_id || a.refund_id - b.refund_id || a.line_id - b.line_id
    expect(entries.length).toBeGreaterThan(summary.counts.payments)
    expect(entries.map((e) => ({ ...e, amount: e.amount.toFixed(6), fee: e.fee.toFixed(6) }))).toEqual(
      expected.toSorted(order).map((e) => ({ ...e, amount: e.amount.toFixed(6), fee: e.fee.toFixed(6) })),
    )
  })

  test("the payments search finds every invoice by its number and by its customer's last name", async () => {
    const found = async (column: string, term: string) =>
      (
        await sql<{ rowid: number }>`
          SELECT rowid FROM invoice_search WHERE invoice_search MATCH ${`${column} : "${term}"`} ORDER BY rowid`.execute(
          db,
        )
      ).rows.map((r) => r.rowid)
    const customers = await db.selectFrom('customers').select(['id', 'last_name']).execute()
    const lastNameOf = new Map(customers.map((c) => [c.id, c.last_name.toLowerCase()]))
    for (const invoice of invoices.filter((i) => i.id >= 100 && i.id % 97 === 0))
      expect(await found('invoice_number', String(invoice.id))).toEqual(
        invoices.filter((i) => String(i.id).includes(String(invoice.id))).map((i) => i.id),
      )
    for (const lastName of new Set(
      invoices.flatMap((i) => (i.customer_id === null ? [] : [lastNameOf.get(i.customer_id)!])),
    ))
      expect(await found('last_name', lastName)).toEqual(
        invoices
          .filter((i) => i.customer_id !== null && lastNameOf.get(i.customer_id)!.includes(lastName))
          .map((i) => i.id),
      )
  })

  test('what a credit paid is what it no longer has', async () => {
    const credits = await db.selectFrom('customer_credits').selectAll().where('is_removed', '=', 0).execute()
    for (const credit of credits) {
      const drawn = payments
        .filter((p) => p.credit_id === credit.id)
        .reduce((sum, p) => sum + p.amount_cents, 0)
      expect(drawn).toBe(credit.amount_total_cents - credit.amount_remaining_cents)
    }
  })

  test("sales happen in the desk's hours (renewals in the morning billing run), never after now, ids in time order", () => {
    for (const invoice of invoices) {
      expect(invoice.created_at <= NOW.toISOString()).toBe(true)
      if (invoice.created_at === NOW.toISOString()) continue
      const minutes = localMinutes(invoice.created_at)
      if (invoice.description === 'Membership renewal') expect(Math.floor(minutes / 60)).toBe(6)
      else if (invoice.staff_user_id !== null) {
        expect(minutes).toBeGreaterThanOrEqual(9 * 60)
        expect(minutes).toBeLessThan(22 * 60)
      }
    }
    for (let i = 1; i < invoices.length; i++)
      expect(invoices[i]!.created_at >= invoices[i - 1]!.created_at).toBe(true)
    for (let i = 1; i < payments.length; i++)
      expect(payments[i]!.created_at >= payments[i - 1]!.created_at).toBe(true)
    expect(invoices.some((i) => i.customer_id === null)).toBe(true)
    expect(localDate(new Date(invoices.at(-1)!.created_at), ZONE)).toBe(TODAY)
  })
})

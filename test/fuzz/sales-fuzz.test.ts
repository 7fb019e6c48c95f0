/**
 * Sales with random small lines, discounts and payments posted through the API: whatever the mix,
 * the answer is a 201 or a documented 400 (test/helpers/app.ts checks each body against the
 * document), never a 5xx; and a recorded sale's discount is spread with every line's share at
 * least 0.00 and at most its gross, the shares adding up to discount_total exactly. Small prices,
 * many lines and odd percentages are where rounded shares go wrong.
 *
 * The seed is printed; `FUZZ_SEED=<seed> bun test test/fuzz/sales-fuzz.test.ts` posts the same
 * sales again (the app's clock is fixed), and `FUZZ_RUNS=<n>` sets how many.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { makeTestApp, type TestApp } from '../helpers/app.ts'
import { seedBasics } from '../helpers/factories.ts'
import { makeDiscount, makeTaxRate } from '../helpers/product-factories.ts'

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FUZZ_RUNS ?? 120)
/** The run's own limit: a busy machine may take several times the usual few seconds. */
const TIMEOUT_MS = 120_000

let t: TestApp
let token: string
let taxRateIds: number[]

beforeAll(async () => {
  t = await makeTestApp()
  token = (await seedBasics(t.db)).adminToken
  taxRateIds = [
    (await makeTaxRate(t.db)).id,
    (await makeTaxRate(t.db, { name: 'Odd', rate_basis_points: 1 })).id,
    (await makeTaxRate(t.db, { name: 'Steep', rate_basis_points: 2750 })).id,
  ]
})

afterAll(() => t.close())

const cents = (amount: string) => Math.round(Number(amount) * 100)
const decimal = (cents: number) => (cents / 100).toFixed(2)

/** A discount as the sale applies it: a percentage (in hundredths) or an amount off, in cents. */
const discountTerms = fc.oneof(
  fc.record({
    percent_off_hundredths: fc.integer({ min: 1, max: 10_000 }),
    amount_off_cents: fc.constant(null),
  }),
  fc.record({
    percent_off_hundredths: fc.constant(null),
    amount_off_cents: fc.integer({ min: 1, max: 5_000 }),
  }),
)

/** A GEN line: mostly a few cents, sometimes a few dollars, a small quantity, perhaps taxed. */
const line = fc.record({
  unit_price_cents: fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 30 }), weight: 3 },
    { arbitrary: fc.integer({ min: 0, max: 2_000 }), weight: 1 },
  ),
  quantity: fc.integer({ min: 1, max: 5 }),
  /** -1 for no tax rate, else which of taxRateIds */
  tax: fc.integer({ min: -1, max: 2 }),
})

/** What a payment pays, in thousandths of the sale's gross (some overpay), and its fee, in thousandths of that. */
const payment = fc.record({
  share: fc.integer({ min: 0, max: 1_100 }),
  fee_share: fc.integer({ min: 0, max: 1_100 }),
})

/**
 * A sale's lines: runs of equal lines, whose shares all round the same way, which is where shares
 * each rounded on their own would add up to more than the discount.
 */
const lines = fc
  .array(fc.tuple(line, fc.integer({ min: 1, max: 10 })), { minLength: 1, maxLength: 6 })
  .map((runs) => runs.flatMap(([one, copies]) => Array<typeof one>(copies).fill(one)))

const sale = fc.record({
  lines,
  discounts: fc.array(discountTerms, { minLength: 0, maxLength: 3 }),
  payments: fc.array(payment, { minLength: 0, maxLength: 2 }),
})

type LineOut = { unit_price: string; quantity: number; discount_amount: string; net_amount: string }

let codes = 0

test(
  'random sales answer 201 or a documented 400, and every discount share lies in [0, its gross]',
  async () => {
    console.log(
      `sales fuzz: seed ${SEED}, ${RUNS} sales (FUZZ_SEED=${SEED} bun test test/fuzz/sales-fuzz.test.ts)`,
    )
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(sale, async ({ lines, discounts, payments }) => {
        const discountCodes: string[] = []
        for (const terms of discounts) {
          const code = `FUZZ${++codes}`
          await makeDiscount(t.db, { code, ...terms })
          discountCodes.push(code)
        }
        const gross = lines.reduce((sum, l) => sum + l.unit_price_cents * l.quantity, 0)
        const body = {
          discount_codes: discountCodes,
          line_items: lines.map((l) => ({
            purchase_type: 'GEN',
            description: 'Chalk',
            unit_price: decimal(l.unit_price_cents),
            quantity: l.quantity,
            ...(l.tax >= 0 ? { tax_rate_id: taxRateIds[l.tax] } : {}),
          })),
          payments: payments.map((p) => {
            const amount = Math.floor((gross * p.share) / 1000)
            return {
              payment_type: 'OFF',
              amount: decimal(amount),
              processor_fee: decimal(Math.floor((amount * p.fee_share) / 1000)),
            }
          }),
        }
        const res = await t.request('POST', '/api/invoices/', { token, body })
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        const sent = `POST /api/invoices/ ${JSON.stringify(body)}`
        if (res.status !== 201 && res.status !== 400)
          throw new Error(`${sent}\nanswered ${res.status}: ${JSON.stringify(res.body)}`)
        if (res.status !== 201) return
        const answered: LineOut[] = res.body.line_items
        const shares = answered.map((l) => cents(l.discount_amount))
        answered.forEach((l, i) => {
          const lineGross = cents(l.unit_price) * l.quantity
          if (shares[i]! < 0 || shares[i]! > lineGross || cents(l.net_amount) !== lineGross - shares[i]!)
            throw new Error(`${sent}\nline ${i} of gross ${decimal(lineGross)} took ${l.discount_amount}`)
        })
        const spread = shares.reduce((sum, share) => sum + share, 0)
        if (spread !== cents(res.body.discount_total))
          throw new Error(`${sent}\nshares add up to ${decimal(spread)}, not ${res.body.discount_total}`)
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: false },
    )
    // Most sales were recorded, not refused (only overpayments and fees above their amounts are).
    expect(statuses.get(201) ?? 0).toBeGreaterThan(RUNS / 3)
  },
  TIMEOUT_MS,
)

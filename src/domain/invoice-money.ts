import { centsToDecimal } from '../lib/money.ts'

/**
 * An invoice's arithmetic, in integer cents: what each discount takes off, how the discounts are
 * spread over the lines, each line's tax and the invoice's totals, and the most a payment can be.
 * Every division rounds half to even, so a run of halves neither creeps up nor down.
 */

/**
 * The most a payment's amount can be: the API reads amounts as DRF's DecimalField(max_digits=10,
 * decimal_places=2) does, which holds 99999999.99. A sale for more could never be paid, so none is
 * recorded.
 */
export const MAX_PAYMENT_CENTS = 10 ** 10 - 1

/** What a refused payment, refund or sale says about its amounts. */
export const paymentAmountMessages = {
  feeAboveAmount: (amountCents: number) =>
    `Ensure this value is less than or equal to the amount (${centsToDecimal(amountCents)}).`,
  linesAbovePayment: (grossCents: number) =>
    `The lines come to ${centsToDecimal(grossCents)} before discounts, more than a payment can hold (${centsToDecimal(MAX_PAYMENT_CENTS)}).`,
  totalAbovePayment: (totalCents: number) =>
    `The invoice total (${centsToDecimal(totalCents)}) is more than a payment can hold (${centsToDecimal(MAX_PAYMENT_CENTS)}).`,
}

/** `numerator / denominator` rounded to a whole number, halves to the even neighbour (both >= 0). */
export function divideHalfEven(numerator: number, denominator: number): number {
  const quotient = Math.floor(numerator / denominator)
  const twiceRest = 2 * (numerator - quotient * denominator)
  if (twiceRest > denominator) return quotient + 1
  if (twiceRest < denominator) return quotient
  return quotient % 2 === 0 ? quotient : quotient + 1
}

/**
 * `value * factor / denominator` rounded half to even (all >= 0), exact even where the product is
 * past what a double holds to the unit: a discount's cents times an invoice's gross can be.
 */
export function scaleHalfEven(value: number, factor: number, denominator: number): number {
  const product = value * factor
  if (Number.isSafeInteger(product) && Number.isSafeInteger(denominator))
    return divideHalfEven(product, denominator)
  const numerator = BigInt(value) * BigInt(factor)
  const divisor = BigInt(denominator)
  const quotient = numerator / divisor
  const twiceRest = 2n * (numerator - quotient * divisor)
  const up = twiceRest > divisor || (twiceRest === divisor && quotient % 2n === 1n)
  return Number(up ? quotient + 1n : quotient)
}

/** A discount as the invoice applies it: a percentage in hundredths (12.50% is 1250), or an amount. */
export type DiscountTerms = { percentOffHundredths: number } | { amountOffCents: number }

/**
 * What each discount takes off, in the order given: a percentage of what the earlier discounts
 * left, an amount at most what they left, so the discounts never take an invoice below zero.
 */
export function discountAmounts(grossCents: number, discounts: readonly DiscountTerms[]): number[] {
  let left = grossCents
  return discounts.map((discount) => {
    const amount =
      'percentOffHundredths' in discount
        ? scaleHalfEven(left, discount.percentOffHundredths, 10_000)
        : Math.min(discount.amountOffCents, left)
    left -= amount
    return amount
  })
}

/**
 * Spreads `totalCents` of discount (at most the lines' gross) over lines in proportion to their
 * gross, by cumulative rounding: the lines up to and including each one take the exact share of
 * their gross so far rounded half to even, and a line's share is that less the same for the lines
 * before it. The last line's running total is the whole discount, so it takes the remainder and the
 * shares add up to the total exactly. Rounding never runs backwards, so no share is below zero; and
 * a running total moves by less than a line's gross plus one cent across that line, so no share is
 * more than its line's gross. Each share is within a cent of its exact part.
 */
export function spreadDiscount(grossCents: readonly number[], totalCents: number): number[] {
  const grossTotal = grossCents.reduce((sum, gross) => sum + gross, 0)
  if (grossCents.length === 0 || totalCents === 0 || grossTotal === 0) return grossCents.map(() => 0)
  let grossSoFar = 0
  let takenSoFar = 0
  return grossCents.map((gross) => {
    grossSoFar += gross
    const runningTotal = scaleHalfEven(totalCents, grossSoFar, grossTotal)
    const share = runningTotal - takenSoFar
    takenSoFar = runningTotal
    return share
  })
}

/** A line's tax: its net at the rate (in basis points, 825 is 8.25%), rounded to cents. */
export const lineTaxCents = (netCents: number, rateBasisPoints: number): number =>
  scaleHalfEven(netCents, rateBasisPoints, 10_000)

export interface LinePricing {
  unitPriceCents: number
  quantity: number
  taxRateBasisPoints: number
}

export interface PricedLine {
  grossCents: number
  discountCents: number
  netCents: number
  taxCents: number
}

export interface PricedInvoice {
  lines: PricedLine[]
  /** What each discount took off, in the order applied */
  discountCents: number[]
  discountTotalCents: number
  taxTotalCents: number
  /** The sum of the lines' net and tax */
  totalCents: number
}

/** An invoice's lines priced: gross, discount share, net and tax per line, and the totals. */
export function priceInvoice(
  lines: readonly LinePricing[],
  discounts: readonly DiscountTerms[],
): PricedInvoice {
  const gross = lines.map((line) => line.unitPriceCents * line.quantity)
  const discountCents = discountAmounts(
    gross.reduce((sum, cents) => sum + cents, 0),
    discounts,
  )
  const discountTotalCents = discountCents.reduce((sum, cents) => sum + cents, 0)
  const shares = spreadDiscount(gross, discountTotalCents)
  const priced = lines.map((line, i) => {
    const netCents = gross[i]! - shares[i]!
    return {
      grossCents: gross[i]!,
      discountCents: shares[i]!,
      netCents,
      taxCents: lineTaxCents(netCents, line.taxRateBasisPoints),
    }
  })
  const taxTotalCents = priced.reduce((sum, line) => sum + line.taxCents, 0)
  return {
    lines: priced,
    discountCents,
    discountTotalCents,
    taxTotalCents,
    totalCents: priced.reduce((sum, line) => sum + line.netCents + line.taxCents, 0),
  }
}

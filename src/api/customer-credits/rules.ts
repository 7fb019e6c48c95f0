import type { Actor } from '../../domain/actor.ts'
import type { Static } from '@sinclair/typebox'
import { insertCredit, updateCredit, type CreditRow } from './queries.ts'
import type { CreditWrite } from './schema.ts'
import type { Deps } from '../../deps.ts'
import type { FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { toCents } from '../../lib/money.ts'
import { changeExpiry, checkUnchanged, newExpiringRecord } from '../customer-records/record-rules.ts'

type CreditInput = Static<typeof CreditWrite>

// Amounts are kept in whole cents, so a finer amount is refused rather than rounded, in the words
// of DRF's DecimalField(max_digits=10, decimal_places=2).
export const tooManyDecimals = 'Ensure that there are no more than 2 decimal places.'
export const tooManyWholeDigits = 'Ensure that there are no more than 8 digits before the decimal point.'
const AMOUNT_LIMIT = 100_000_000

/** amount_total's rules beyond "a number greater than 0"; on a change, it must stay what it was. */
function checkAmount(errors: FieldErrorCollector, amount: number | undefined, existing?: CreditRow) {
  if (amount === undefined) return
  if (Number(amount.toFixed(2)) !== amount) errors.add('amount_total', tooManyDecimals)
  else if (amount >= AMOUNT_LIMIT) errors.add('amount_total', tooManyWholeDigits)
  else if (existing) checkUnchanged(errors, 'amount_total', toCents(amount), existing.amount_total_cents)
}

/** A new credit is worth its whole amount until it is redeemed. */
export async function createCredit(
  deps: Pick<Deps, 'db' | 'clock'>,
  customerId: number,
  body: CheckedBody<CreditInput>,
  actor: Actor,
): Promise<number> {
  checkAmount(body.errors, body.fields.amount_total)
  const input = body.valid()
  const cents = toCents(input.amount_total)
  return insertCredit(deps.db, {
    customer_id: customerId,
    amount_total_cents: cents,
    amount_remaining_cents: cents,
    ...newExpiringRecord(deps, input, actor),
  })
}

/** PUT/PATCH: expiry_date and is_removed change; amount_total may only be sent unchanged. */
export async function changeCredit(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: CreditRow,
  body: CheckedBody<Partial<CreditInput>>,
): Promise<void> {
  checkAmount(body.errors, body.fields.amount_total, row)
  await changeExpiry(deps, row, body, updateCredit)
}

import type { Static } from 'elysia'
import { findDiscountByCode, insertDiscount, updateDiscount, type DiscountRow } from './queries.ts'
import { PERCENT_PLACES, type DiscountWrite } from './schema.ts'
import type { Deps } from '../../deps.ts'
import { checkDecimal, type DecimalRules } from '../../http/decimal.ts'
import { messages, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { toFlag } from '../../db/flags.ts'

type DiscountInput = Static<typeof DiscountWrite>

export const discountCodeTaken = messages.unique('discount', 'code')
export const oneKindOfDiscount = 'Set exactly one of percent_off and amount_off.'

/** Above 0 (the smallest step is 0.01) and at most the whole price. */
const PERCENT_RULES: DecimalRules = { min: 0.01, max: 100, maxDigits: 5, places: PERCENT_PLACES }
const AMOUNT_RULES: DecimalRules = { min: 0.01 }

/** A nullable decimal: null when sent as null, its units when valid, undefined when not sent or refused. */
function checkNullableDecimal(
  fields: Record<string, unknown>,
  errors: FieldErrorCollector,
  name: string,
  rules: DecimalRules,
): number | null | undefined {
  return fields[name] === null ? null : checkDecimal(fields, errors, name, rules)
}

interface Checked {
  percentOff?: number | null
  amountOff?: number | null
}

/**
 * The rules a schema cannot say: the code is free (whatever its case), and the discount takes off a
 * percentage or an amount, never both or neither (judged on the whole resulting record for PATCH:
 * switching kinds sends the other one as null).
 */
async function checkDiscount(
  deps: Pick<Deps, 'db'>,
  fields: Partial<DiscountInput>,
  errors: FieldErrorCollector,
  existing?: DiscountRow,
): Promise<Checked> {
  if (typeof fields.code === 'string') {
    const holder = await findDiscountByCode(deps.db, fields.code)
    if (holder !== undefined && holder.id !== existing?.id) errors.add('code', discountCodeTaken)
  }
  const checked: Checked = {
    percentOff: checkNullableDecimal(fields, errors, 'percent_off', PERCENT_RULES),
    amountOff: checkNullableDecimal(fields, errors, 'amount_off', AMOUNT_RULES),
  }
  if (!errors.has('percent_off') && !errors.has('amount_off')) {
    const percentOff = 'percent_off' in fields ? checked.percentOff : existing?.percent_off_hundredths
    const amountOff = 'amount_off' in fields ? checked.amountOff : existing?.amount_off_cents
    if (((percentOff ?? null) === null) === ((amountOff ?? null) === null))
      errors.add('non_field_errors', oneKindOfDiscount)
  }
  return checked
}

export async function createDiscount(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<DiscountInput>,
): Promise<number> {
  const checked = await checkDiscount(deps, body.fields, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertDiscount(deps.db, {
    code: input.code,
    name: input.name ?? '',
    display_name: input.display_name ?? '',
    association_id: input.association_id ?? null,
    percent_off_hundredths: checked.percentOff ?? null,
    amount_off_cents: checked.amountOff ?? null,
    is_active: toFlag(input.is_active) ?? 1,
    created_at: now,
    updated_at: now,
  })
}

/** PUT/PATCH. Invoices keep the amounts a discount took off them when it changes. */
export async function changeDiscount(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: DiscountRow,
  body: CheckedBody<Partial<DiscountInput>>,
): Promise<void> {
  const checked = await checkDiscount(deps, body.fields, body.errors, row)
  const input = body.valid()
  await updateDiscount(deps.db, row.id, {
    code: input.code,
    name: input.name,
    display_name: input.display_name,
    association_id: input.association_id,
    percent_off_hundredths: checked.percentOff,
    amount_off_cents: checked.amountOff,
    is_active: toFlag(input.is_active),
    updated_at: deps.clock.now().toISOString(),
  })
}

import type { Static } from 'elysia'
import { insertTaxRate, updateTaxRate, type TaxRateRow } from './queries.ts'
import { RATE_PLACES, type TaxRateWrite } from './schema.ts'
import type { Deps } from '../../deps.ts'
import { checkDecimal, type DecimalRules } from '../../http/decimal.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { toFlag } from '../../db/flags.ts'

type TaxRateInput = Static<typeof TaxRateWrite>

/** DRF's DecimalField(max_digits=5, decimal_places=4, min_value=0, max_value=0.9999): below 1. */
const RATE_RULES: DecimalRules = { min: 0, max: 0.9999, maxDigits: 5, places: RATE_PLACES }

export async function createTaxRate(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<TaxRateInput>,
): Promise<number> {
  const basisPoints = checkDecimal(body.fields, body.errors, 'rate', RATE_RULES)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertTaxRate(deps.db, {
    name: input.name,
    rate_basis_points: basisPoints!,
    is_active: toFlag(input.is_active) ?? 1,
    created_at: now,
    updated_at: now,
  })
}

/**
 * PUT/PATCH. A changed rate applies to sales from now on; what invoices already charged stays as
 * they recorded it.
 */
export async function changeTaxRate(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: TaxRateRow,
  body: CheckedBody<Partial<TaxRateInput>>,
): Promise<void> {
  const basisPoints = checkDecimal(body.fields, body.errors, 'rate', RATE_RULES)
  const input = body.valid()
  await updateTaxRate(deps.db, row.id, {
    name: input.name,
    rate_basis_points: basisPoints,
    is_active: toFlag(input.is_active),
    updated_at: deps.clock.now().toISOString(),
  })
}

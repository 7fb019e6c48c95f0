import type { Static } from 'elysia'
import { insertEntryPassType, updateEntryPassType, type EntryPassTypeRow } from './queries.ts'
import type { EntryPassTypeWrite } from './schema.ts'
import { lookUpTaxRate } from '../tax-rates/queries.ts'
import type { Deps } from '../../deps.ts'
import { checkDecimal } from '../../http/decimal.ts'
import type { CheckedBody } from '../../http/validation.ts'

type EntryPassTypeInput = Static<typeof EntryPassTypeWrite>

/** The rules a schema cannot say: the price as a decimal (in cents, when sent) and the tax rate. */
async function checkEntryPassType(
  deps: Pick<Deps, 'db'>,
  body: CheckedBody<Partial<EntryPassTypeInput>>,
): Promise<number | undefined> {
  await lookUpTaxRate(deps.db, body.errors, 'tax_rate_id', body.fields.tax_rate_id)
  return checkDecimal(body.fields, body.errors, 'price')
}

export async function createEntryPassType(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<EntryPassTypeInput>,
): Promise<number> {
  const priceCents = await checkEntryPassType(deps, body)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertEntryPassType(deps.db, {
    name: input.name,
    status: input.status,
    number_of_entries: input.number_of_entries,
    valid_days: input.valid_days ?? null,
    price_cents: priceCents ?? 0,
    tax_rate_id: input.tax_rate_id ?? null,
    revenue_account_code: input.revenue_account_code ?? '',
    created_at: now,
    updated_at: now,
  })
}

/**
 * PUT/PATCH. Passes already issued keep their own entries and expiry: changing the type changes
 * what is sold from now on, not what customers hold.
 */
export async function changeEntryPassType(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: EntryPassTypeRow,
  body: CheckedBody<Partial<EntryPassTypeInput>>,
): Promise<void> {
  const priceCents = await checkEntryPassType(deps, body)
  const input = body.valid()
  await updateEntryPassType(deps.db, row.id, {
    name: input.name,
    status: input.status,
    number_of_entries: input.number_of_entries,
    valid_days: input.valid_days,
    price_cents: priceCents,
    tax_rate_id: input.tax_rate_id,
    revenue_account_code: input.revenue_account_code,
    updated_at: deps.clock.now().toISOString(),
  })
}

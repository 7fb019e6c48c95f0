import type { Static } from 'elysia'
import { insertEntryPassType, updateEntryPassType, type EntryPassTypeRow } from './queries.ts'
import type { EntryPassTypeWrite } from './schema.ts'
import { checkSaleTerms, newSaleTerms } from '../sellable-products/rules.ts'
import type { Deps } from '../../deps.ts'
import type { CheckedBody } from '../../http/validation.ts'

type EntryPassTypeInput = Static<typeof EntryPassTypeWrite>

export async function createEntryPassType(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<EntryPassTypeInput>,
): Promise<number> {
  const saleTerms = await checkSaleTerms(deps.db, body.fields, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertEntryPassType(deps.db, {
    name: input.name,
    status: input.status,
    number_of_entries: input.number_of_entries,
    valid_days: input.valid_days ?? null,
    ...newSaleTerms(saleTerms),
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
  const saleTerms = await checkSaleTerms(deps.db, body.fields, body.errors)
  const input = body.valid()
  await updateEntryPassType(deps.db, row.id, {
    name: input.name,
    status: input.status,
    number_of_entries: input.number_of_entries,
    valid_days: input.valid_days,
    ...saleTerms,
    updated_at: deps.clock.now().toISOString(),
  })
}

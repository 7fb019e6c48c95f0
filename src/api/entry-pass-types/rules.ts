import type { Static } from 'elysia'
import { insertEntryPassType, updateEntryPassType, type EntryPassTypeRow } from './queries.ts'
import type { EntryPassTypeWrite } from './schema.ts'
import type { Deps } from '../../deps.ts'
import { checkDecimal } from '../../http/decimal.ts'
import type { CheckedBody } from '../../http/validation.ts'

type EntryPassTypeInput = Static<typeof EntryPassTypeWrite>

export async function createEntryPassType(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<EntryPassTypeInput>,
): Promise<number> {
  const priceCents = checkDecimal(body.fields, body.errors, 'price')
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertEntryPassType(deps.db, {
    name: input.name,
    status: input.status,
    number_of_entries: input.number_of_entries,
    valid_days: input.valid_days ?? null,
    price_cents: priceCents ?? 0,
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
  const priceCents = checkDecimal(body.fields, body.errors, 'price')
  const input = body.valid()
  await updateEntryPassType(deps.db, row.id, {
    name: input.name,
    status: input.status,
    number_of_entries: input.number_of_entries,
    valid_days: input.valid_days,
    price_cents: priceCents,
    updated_at: deps.clock.now().toISOString(),
  })
}

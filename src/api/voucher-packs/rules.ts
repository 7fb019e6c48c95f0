import type { Static } from 'elysia'
import { insertVoucherPack, updateVoucherPack, type VoucherPackRow } from './queries.ts'
import type { VoucherPackWrite } from './schema.ts'
import { getEventType } from '../event-types/queries.ts'
import { checkSaleTerms, newSaleTerms } from '../sellable-products/rules.ts'
import type { Deps } from '../../deps.ts'
import { lookUpReferenced } from '../../http/references.ts'
import type { CheckedBody } from '../../http/validation.ts'

type VoucherPackInput = Static<typeof VoucherPackWrite>

/** The rules a schema cannot say: the event type exists, and the terms it is sold on. */
async function checkVoucherPack(deps: Pick<Deps, 'db'>, body: CheckedBody<Partial<VoucherPackInput>>) {
  const { fields, errors } = body
  await lookUpReferenced(errors, 'event_type_id', fields.event_type_id, (id) => getEventType(deps.db, id))
  return checkSaleTerms(deps.db, fields, errors)
}

export async function createVoucherPack(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<VoucherPackInput>,
): Promise<number> {
  const saleTerms = await checkVoucherPack(deps, body)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertVoucherPack(deps.db, {
    name: input.name,
    status: input.status,
    event_type_id: input.event_type_id,
    number_of_uses: input.number_of_uses,
    valid_days: input.valid_days ?? null,
    ...newSaleTerms(saleTerms),
    created_at: now,
    updated_at: now,
  })
}

/**
 * PUT/PATCH. Vouchers already issued keep their own event type, uses and expiry: changing the pack
 * changes what is sold from now on, not what customers hold.
 */
export async function changeVoucherPack(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: VoucherPackRow,
  body: CheckedBody<Partial<VoucherPackInput>>,
): Promise<void> {
  const saleTerms = await checkVoucherPack(deps, body)
  const input = body.valid()
  await updateVoucherPack(deps.db, row.id, {
    name: input.name,
    status: input.status,
    event_type_id: input.event_type_id,
    number_of_uses: input.number_of_uses,
    valid_days: input.valid_days,
    ...saleTerms,
    updated_at: deps.clock.now().toISOString(),
  })
}

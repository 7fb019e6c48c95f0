import type { Static, TObject } from '@sinclair/typebox'
import { getEntryPassType } from '../entry-pass-types/queries.ts'
import { getMembershipType } from '../membership-types/queries.ts'
import { getVoucherPack } from '../voucher-packs/queries.ts'
import { replaceQuickSales } from './queries.ts'
import { MAX_QUICK_SALES, QuickSalesTop, QuickSaleWrite, type QUICK_SALE_TYPES } from './schema.ts'
import { saleMessages } from '../../core/sales/messages.ts'
import type { Deps } from '../../deps.ts'
import { ApiError, FieldErrorCollector, messages, type FieldErrors } from '../../http/errors.ts'
import { CheckedBody, checkBody } from '../../http/validation.ts'
import { jsonTypeName } from '../../lib/json.ts'

/** What a refused list of buttons says beyond DRF's usual words. */
export const quickSaleMessages = {
  /** DRF's ListField(max_length=...) */
  tooMany: (n: number) => `Ensure this field has no more than ${n} elements.`,
}

/** The product a button names, by its purchase type: its name and status, or undefined. */
const findProduct = (deps: Deps, type: (typeof QUICK_SALE_TYPES)[number], id: number) =>
  type === 'MIN'
    ? getMembershipType(deps.db, id)
    : type === 'EPA'
      ? getEntryPassType(deps.db, id)
      : getVoucherPack(deps.db, id)

/** One button checked on its own, as a DRF nested serializer checks each item of a list. */
function checkItem<S extends TObject>(schema: S, item: unknown): CheckedBody<Static<S>> {
  if (item === null || typeof item !== 'object' || Array.isArray(item))
    return new CheckedBody<Static<S>>(
      {},
      new FieldErrorCollector({ non_field_errors: [messages.invalidBody(jsonTypeName(item))] }),
    )
  return checkBody(schema, item)
}

/**
 * PUT /api/organization/quick-sales/: the whole list replaced, or nothing when any button is
 * refused (each at its index, `{}` for those that passed): its product must exist and be active.
 */
export async function replaceQuickSaleList(deps: Deps, raw: unknown): Promise<void> {
  const { fields, errors } = checkBody(QuickSalesTop, raw)
  const items = fields.quick_sales ?? []
  if (items.length > MAX_QUICK_SALES) {
    errors.add('quick_sales', quickSaleMessages.tooMany(MAX_QUICK_SALES))
    errors.throwIfAny()
  }
  const bodies = items.map((item) => checkItem(QuickSaleWrite, item))
  const rows = []
  for (const [position, body] of bodies.entries()) {
    const { purchase_type: type, product_id: id, label } = body.fields
    if (type === undefined || id === undefined) continue
    const product = await findProduct(deps, type, id)
    if (!product) body.errors.add('product_id', messages.doesNotExist(id))
    else if (product.status !== 'ACT') body.errors.add('product_id', saleMessages.notForSale)
    else rows.push({ position, purchase_type: type, product_id: id, label: label ?? product.name })
  }
  errors.throwIfAny()
  const itemErrors: FieldErrors[] = bodies.map((body) => body.errors.collected())
  if (itemErrors.some((found) => Object.keys(found).length > 0))
    throw new ApiError(400, { quick_sales: itemErrors })
  await replaceQuickSales(deps.db, rows)
}

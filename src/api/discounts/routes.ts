import { changeDiscount, createDiscount } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'

const DISCOUNT_RULES = [
  '`code` is unique whatever its case (`discount with this code already exists.`). A discount takes',
  'off either `percent_off` or `amount_off`: exactly one is set, the other `null`, else',
  '`{"non_field_errors": ["Set exactly one of percent_off and amount_off."]}`.',
].join(' ')
import { defineFilters } from '../../http/filters.ts'
import { getDiscount, listDiscounts } from './queries.ts'
import { DiscountOut, DiscountWrite } from './schema.ts'
import { serializeDiscount } from './serializer.ts'

/**
 * /api/discounts/: codes that take a percentage or an amount off a sale. Any staff user reads them
 * (the desk looks a code up as a customer gives it); admins write; no DELETE (invoices name them:
 * retire with is_active).
 */
export const discountRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/discounts',
    tag: 'Discounts',
    noun: 'discount',
    read: 'staff',
    write: 'admin',
    descriptions: {
      list: 'Ordered by code, then id.',
      create: DISCOUNT_RULES,
      replace: DISCOUNT_RULES,
      update: `${DISCOUNT_RULES} To switch kinds, send the new one and the old one as \`null\`.`,
    },
    filters: defineFilters({
      code: { kind: 'exact', description: 'Exact code, in any case' },
      is_active: 'bool',
      search: { kind: 'text', description: 'Words each found in the code, name or display name' },
    }),
    output: DiscountOut,
    list: ({ deps }, filters) => listDiscounts(deps.db, filters),
    get: ({ deps }, id) => getDiscount(deps.db, id),
    serialize: serializeDiscount,
    create: { body: DiscountWrite, run: ({ deps }, body) => createDiscount(deps, body) },
    replace: { body: DiscountWrite, run: ({ deps }, row, body) => changeDiscount(deps, row, body) },
  })

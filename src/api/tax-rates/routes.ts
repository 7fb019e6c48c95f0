import { changeTaxRate, createTaxRate } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'

const RATE_RULES = [
  '`rate` is a fraction from 0 to 0.9999 with at most 4 decimal places (`1` or more is `Ensure this',
  'value is less than or equal to 0.9999.`). A change applies to what is sold from then on.',
].join(' ')
import { defineFilters } from '../../http/filters.ts'
import { getTaxRate, listTaxRates } from './queries.ts'
import { TaxRateOut, TaxRateWrite } from './schema.ts'
import { serializeTaxRate } from './serializer.ts'

/**
 * /api/tax-rates/: the rates products are taxed at. Any staff user reads them (the desk sells at
 * them); admins write; no DELETE (products and invoices name them: retire with is_active).
 */
export const taxRateRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/tax-rates',
    tag: 'Tax rates',
    noun: 'tax rate',
    read: 'staff',
    write: 'admin',
    descriptions: {
      list: 'Ordered by name, then id.',
      create: RATE_RULES,
      replace: RATE_RULES,
      update: RATE_RULES,
    },
    filters: defineFilters({ is_active: 'bool' }),
    output: TaxRateOut,
    list: ({ deps }, filters) => listTaxRates(deps.db, filters),
    get: ({ deps }, id) => getTaxRate(deps.db, id),
    serialize: serializeTaxRate,
    create: { body: TaxRateWrite, run: ({ deps }, body) => createTaxRate(deps, body) },
    replace: { body: TaxRateWrite, run: ({ deps }, row, body) => changeTaxRate(deps, row, body) },
  })

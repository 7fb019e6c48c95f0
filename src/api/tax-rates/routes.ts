import { changeTaxRate, createTaxRate } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
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
    filters: defineFilters({ is_active: 'bool' }),
    output: TaxRateOut,
    list: ({ deps }, filters) => listTaxRates(deps.db, filters),
    get: ({ deps }, id) => getTaxRate(deps.db, id),
    serialize: serializeTaxRate,
    create: { body: TaxRateWrite, run: ({ deps }, body) => createTaxRate(deps, body) },
    replace: { body: TaxRateWrite, run: ({ deps }, row, body) => changeTaxRate(deps, row, body) },
  })

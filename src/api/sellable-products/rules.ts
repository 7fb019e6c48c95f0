import { lookUpTaxRate } from '../tax-rates/queries.ts'
import type { Db } from '../../db/connection.ts'
import { DEFAULT_SALE_TERMS, type SaleTerms } from '../../domain/products.ts'
import { checkDecimal } from '../../http/decimal.ts'
import type { FieldErrorCollector } from '../../http/errors.ts'

/*
 * The one rule every sellable product's body keeps, whatever the product (membership types, entry
 * pass types, voucher packs, events, add-ons): its price is a decimal of at least 0, and the tax
 * rate it names exists (a retired one too: retiring a rate does not change what products already
 * charge). Each product type's rules.ts calls it beside its own checks; its fields are documented
 * once in api/tax-rates/schema.ts (saleTermsWrite). Not a resource: it has no routes.
 */

/** A product body's terms as sent; `price` under the name the product gives it. */
interface SaleTermsFields {
  tax_rate_id?: number | null
  revenue_account_code?: string
}

/**
 * The terms a body sends, checked, as the product's row stores them: each left out when not sent
 * (a change keeps the stored value) or refused (`errors` says why).
 */
export async function checkSaleTerms(
  db: Db,
  fields: SaleTermsFields & Record<string, unknown>,
  errors: FieldErrorCollector,
  priceField: 'price' | 'fee' = 'price',
): Promise<Partial<SaleTerms>> {
  const priceCents = checkDecimal(fields, errors, priceField)
  await lookUpTaxRate(db, errors, 'tax_rate_id', fields.tax_rate_id)
  return {
    price_cents: priceCents,
    tax_rate_id: fields.tax_rate_id,
    revenue_account_code: fields.revenue_account_code,
  }
}

/** A new product's terms: those sent, the defaults (free, untaxed, no account) for the rest. */
export const newSaleTerms = (sent: Partial<SaleTerms>): SaleTerms => ({
  price_cents: sent.price_cents ?? DEFAULT_SALE_TERMS.price_cents,
  tax_rate_id: sent.tax_rate_id ?? DEFAULT_SALE_TERMS.tax_rate_id,
  revenue_account_code: sent.revenue_account_code ?? DEFAULT_SALE_TERMS.revenue_account_code,
})

import type { FilterReader } from './filter-reader.ts'
import { readProductAttributes, type ProductKind, type ProductScope } from './product-attributes.ts'

/**
 * The `product_type` of the sales metrics (revenue, product_sold_count) and the products it can be
 * narrowed to: `product_ids` and the attribute filters describe membership types, entry pass types,
 * event types and voucher packs; the other product types (gift cards, other lines, all of them)
 * have no products to name.
 */

const PRODUCT_KINDS: readonly string[] = [
  'membership',
  'entry_pass',
  'event',
  'voucher_pack',
] satisfies ProductKind[]

const kindOf = (productType: string): ProductKind | null =>
  PRODUCT_KINDS.includes(productType) ? (productType as ProductKind) : null

export interface ProductTypeChoice<T extends string> {
  productType: T
  /** The product ids asked for, read before the filters that follow them in the reference */
  ids?: number[]
}

/** Reads `product_type` (required, one of `allowed`) and `product_ids`, refused where it has no products. */
export function readProductType<T extends string>(
  filters: FilterReader,
  allowed: readonly T[],
): ProductTypeChoice<T> {
  const productType = filters.requiredChoice('product_type', allowed)
  if (kindOf(productType) === null && filters.has('product_ids'))
    filters.refuse(
      'product_ids',
      `not allowed with product_type ${productType}: product ids name products of ${PRODUCT_KINDS.join(', ')}`,
    )
  return { productType, ids: filters.ids('product_ids') }
}

/**
 * Reads the attribute filters that follow from the product type, and gives what the series
 * counts: null for a product type without products, else its ids and attributes, resolved when
 * the query runs.
 */
export function readProductScope(
  filters: FilterReader,
  { productType, ids }: ProductTypeChoice<string>,
): ProductScope | null {
  const kind = kindOf(productType)
  const attributes = readProductAttributes(filters, kind, `product_type ${productType}`)
  return kind === null ? null : { kind, ids, attributes }
}

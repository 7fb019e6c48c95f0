import { PRODUCT_KINDS, type Catalogue } from './catalogue.ts'

/** The kinds of product the catalogue has any of, in the order the Sell screen lists them. */
export const kindsOnSale = (catalogue: Catalogue) =>
  PRODUCT_KINDS.filter((kind) => catalogue.products[kind.purchaseType].length > 0)

/**
 * A product select's options: each kind on sale as a group, each product as `<purchase type>:<id>`
 * with its name and price. The Sell screen's product picker and the quick-sale editor's both.
 */
export function ProductOptions({ catalogue }: { catalogue: Catalogue }) {
  return (
    <>
      {kindsOnSale(catalogue).map((kind) => (
        <optgroup key={kind.purchaseType} label={kind.label}>
          {catalogue.products[kind.purchaseType].map((p) => (
            <option key={p.id} value={`${kind.purchaseType}:${p.id}`}>
              {p.name}, {p.price}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  )
}

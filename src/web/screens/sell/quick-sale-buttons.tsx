import { quickSaleProduct, type Catalogue, type Product, type ProductKind } from './catalogue.ts'

/**
 * The admin's quick-sale buttons: one click adds one of the product. A button whose product is no
 * longer for sale shows, disabled, until the admin changes the list.
 */
export function QuickSaleButtons({
  catalogue,
  onAdd,
}: {
  catalogue: Catalogue
  onAdd: (kind: ProductKind, product: Product) => void
}) {
  if (catalogue.quickSales.length === 0) return null
  return (
    <nav class="quick-sales" aria-label="Quick sale">
      {catalogue.quickSales.map((button) => {
        const sold = quickSaleProduct(catalogue, button)
        return (
          <button
            key={`${button.purchase_type}:${button.product_id}:${button.label}`}
            type="button"
            disabled={!sold}
            title={sold ? `${sold.product.name}, ${sold.product.price}` : 'Not for sale now'}
            onClick={() => sold && onAdd(sold.kind, sold.product)}
          >
            {button.label}
          </button>
        )
      })}
    </nav>
  )
}

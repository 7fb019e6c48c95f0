import { quickSaleProduct, type Catalogue, type Product, type ProductKind } from './catalogue.ts'
import { MAX_QUICK_SALES } from './quick-sale-list.ts'

/**
 * The admin's quick-sale buttons: one click adds one of the product. A button whose product is no
 * longer for sale shows, disabled, until the admin changes the list. `onChoose`, given to an
 * admin, opens the editor from beside the row, or from where the row would be while there is none.
 */
export function QuickSaleButtons({
  catalogue,
  onAdd,
  onChoose,
}: {
  catalogue: Catalogue
  onAdd: (kind: ProductKind, product: Product) => void
  onChoose?: () => void
}) {
  const choose = onChoose && (
    <button type="button" class="quiet quick-sales-choose" onClick={onChoose}>
      Choose buttons
    </button>
  )
  if (catalogue.quickSales.length === 0)
    return choose ? (
      <p class="quick-sales-row">
        <span class="muted">
          No quick-sale buttons yet: up to {MAX_QUICK_SALES} products to sell in one click.
        </span>
        {choose}
      </p>
    ) : null
  return (
    <div class="quick-sales-row">
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
      {choose}
    </div>
  )
}

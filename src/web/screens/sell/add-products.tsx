import { useState } from 'preact/hooks'
import { PRODUCT_KINDS, taxRateLabel, type Catalogue, type Product, type ProductKind } from './catalogue.ts'
import { kindsOnSale, ProductOptions } from './product-options.tsx'

/** A retail line as its form holds it. */
export interface RetailItem {
  description: string
  unitPrice: string
  quantity: string
  taxRateId: number | null
}

const blankRetail = { description: '', unitPrice: '', quantity: '1', taxRateId: '' }

/** A product of the catalogue with a quantity, or a retail item with its own price and tax rate. */
export function AddProducts({
  catalogue,
  onAdd,
  onAddRetail,
}: {
  catalogue: Catalogue
  onAdd: (kind: ProductKind, product: Product, quantity: string) => void
  onAddRetail: (item: RetailItem) => void
}) {
  const kinds = kindsOnSale(catalogue)
  const first = kinds[0]
  const [choice, setChoice] = useState(
    first ? `${first.purchaseType}:${catalogue.products[first.purchaseType][0]!.id}` : '',
  )
  const [quantity, setQuantity] = useState('1')
  const [retail, setRetail] = useState(blankRetail)

  const addProduct = (event: Event) => {
    event.preventDefault()
    const [purchaseType, id] = choice.split(':')
    const kind = PRODUCT_KINDS.find((k) => k.purchaseType === purchaseType)
    const product = kind && catalogue.products[kind.purchaseType].find((p) => String(p.id) === id)
    if (!kind || !product) return
    onAdd(kind, product, quantity)
    setQuantity('1')
  }
  const addRetail = (event: Event) => {
    event.preventDefault()
    onAddRetail({
      description: retail.description,
      unitPrice: retail.unitPrice,
      quantity: retail.quantity,
      taxRateId: retail.taxRateId === '' ? null : Number(retail.taxRateId),
    })
    setRetail(blankRetail)
  }

  return (
    <section aria-labelledby="sale-products">
      <h2 id="sale-products">Products</h2>
      <form class="action" onSubmit={addProduct} aria-label="Add a product">
        <label>
          Product
          <select
            name="product"
            value={choice}
            disabled={kinds.length === 0}
            onChange={(e) => setChoice(e.currentTarget.value)}
          >
            <ProductOptions catalogue={catalogue} />
          </select>
        </label>
        <label>
          Quantity
          <input
            type="number"
            min={1}
            name="quantity"
            class="quantity"
            value={quantity}
            onInput={(e) => setQuantity(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={kinds.length === 0}>
          Add
        </button>
      </form>
      {kinds.length === 0 && (
        <p class="muted">
          Nothing is for sale yet: an admin adds memberships, entry passes and voucher packs.
        </p>
      )}
      <form class="action" onSubmit={addRetail} aria-label="Add a retail item">
        <label class="grow">
          Retail item
          <input
            name="retail_description"
            value={retail.description}
            onInput={(e) => setRetail({ ...retail, description: e.currentTarget.value })}
          />
        </label>
        <label>
          Unit price
          <input
            name="retail_unit_price"
            inputMode="decimal"
            class="amount"
            value={retail.unitPrice}
            onInput={(e) => setRetail({ ...retail, unitPrice: e.currentTarget.value })}
          />
        </label>
        <label>
          Quantity
          <input
            type="number"
            min={1}
            name="retail_quantity"
            class="quantity"
            value={retail.quantity}
            onInput={(e) => setRetail({ ...retail, quantity: e.currentTarget.value })}
          />
        </label>
        <label>
          Tax
          <select
            name="retail_tax_rate"
            value={retail.taxRateId}
            onChange={(e) => setRetail({ ...retail, taxRateId: e.currentTarget.value })}
          >
            <option value="">No tax</option>
            {catalogue.taxRates.map((rate) => (
              <option key={rate.id} value={String(rate.id)}>
                {taxRateLabel(rate)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Add retail item</button>
      </form>
    </section>
  )
}

/**
 * The quick-sale buttons as the admin arranges them before saving: each with a key of its own, so
 * that its messages follow it as it moves; the body PUT /api/organization/quick-sales/ takes; and a
 * refusal (DRF's `{"quick_sales": [{}, {"product_id": [...]}]}`) placed at the buttons it is about,
 * in plain words.
 */
import type { components } from '../../api-schema.ts'
import { errorPaths, plainWords } from './error-places.ts'

type Schemas = components['schemas']

/** The purchase types a button can sell. */
export type QuickSaleType = Schemas['QuickSalesReplace']['quick_sales'][number]['purchase_type']

/** The most buttons the Sell screen shows: the API refuses a longer list. */
export const MAX_QUICK_SALES = 8

/** A button in the editor. */
export interface EditedButton {
  key: number
  purchaseType: QuickSaleType
  productId: number
  /** What the button says; blank says the product's name. */
  label: string
}

/**
 * The buttons as the API lists them, keyed 1, 2, ... in their order. Typed from the schema, not
 * through catalogue.ts, whose API client needs the DOM's types: the tests import this file without
 * them.
 */
export const editedButtons = (list: Schemas['QuickSales']['quick_sales']): EditedButton[] =>
  list.map((button, i) => ({
    key: i + 1,
    // The API lists only the purchase types it takes.
    purchaseType: button.purchase_type as QuickSaleType,
    productId: button.product_id,
    label: button.label,
  }))

/** The buttons with the one keyed `key` moved one place earlier (-1) or later (1). */
export function moved(buttons: readonly EditedButton[], key: number, by: -1 | 1): EditedButton[] {
  const from = buttons.findIndex((b) => b.key === key)
  const to = from + by
  if (from < 0 || to < 0 || to >= buttons.length) return [...buttons]
  const order = [...buttons]
  ;[order[from], order[to]] = [order[to]!, order[from]!]
  return order
}

/** What PUT sends: a blank label is left out, so the button says the product's name. */
export const replaceBody = (buttons: readonly EditedButton[]): Schemas['QuickSalesReplace'] => ({
  quick_sales: buttons.map((b) => {
    const label = b.label.trim()
    return {
      purchase_type: b.purchaseType,
      product_id: b.productId,
      ...(label === '' ? {} : { label }),
    }
  }),
})

/** A refused list's messages: those about the list as a whole, and each button's by its key. */
export interface PlacedRefusal {
  list: string[]
  buttons: Map<number, string[]>
}

export const NOT_REFUSED: PlacedRefusal = { list: [], buttons: new Map() }

/** A product that cannot be on a button, whichever way the API said it. */
const GONE = [/^Only an active product can be sold\.$/, /^Invalid pk ".*" - object does not exist\.$/]

/** One refused field of a button, in the words the editor shows beside it. */
function buttonWords(field: string, message: string): string {
  if (field === 'product_id' && GONE.some((gone) => gone.test(message)))
    return 'This product is no longer for sale: remove this button.'
  return plainWords(field, message)
}

/** One message about the whole list, in the editor's words. */
function listWords(message: string): string {
  const tooMany = /^Ensure this field has no more than (\d+) elements\.$/.exec(message)
  return tooMany ? `The Sell screen shows at most ${tooMany[1]} buttons: remove one.` : message
}

/**
 * A refusal's messages placed: `quick_sales[i].field` at the button sent at index i (its key in
 * `sentKeys`), anything else about the list as a whole.
 */
export function placeRefusal(body: unknown, sentKeys: readonly number[]): PlacedRefusal {
  const placed: PlacedRefusal = { list: [], buttons: new Map() }
  const add = (shown: string[], words: string) => (shown.includes(words) ? shown : [...shown, words])
  for (const [path, message] of errorPaths(body)) {
    const item = /^quick_sales\[(\d+)\]\.(.+)$/.exec(path)
    const key = item ? sentKeys[Number(item[1])] : undefined
    const words = item ? buttonWords(item[2]!, message) : listWords(message)
    if (key === undefined) placed.list = add(placed.list, words)
    else placed.buttons.set(key, add(placed.buttons.get(key) ?? [], words))
  }
  return placed
}

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import type { components } from '../../api-schema.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { useFocusOnShow } from '../../focus.ts'
import { PRODUCT_KINDS, quickSaleProduct, type Catalogue, type QuickSale } from './catalogue.ts'
import { FieldMessages } from './field-messages.tsx'
import { kindsOnSale, ProductOptions } from './product-options.tsx'
import {
  editedButtons,
  MAX_QUICK_SALES,
  moved,
  NOT_REFUSED,
  placeRefusal,
  replaceBody,
  type EditedButton,
  type PlacedRefusal,
  type QuickSaleType,
} from './quick-sale-list.ts'
import './quick-sale-editor.css'

/**
 * Whether the Sell screen shows the editor in place of the sale, and a way to open or close it.
 * Closed, the focus goes back to "Choose buttons": this runs after the sale's own parts are drawn
 * again (a parent's effects follow its children's), so it comes after the customer search takes
 * the focus as it shows.
 */
export function useChoosingQuickSales(): [boolean, (choosing: boolean) => void] {
  const [choosing, setChoosing] = useState(false)
  const wasChoosing = useRef(false)
  useEffect(() => {
    if (!choosing && wasChoosing.current)
      document.querySelector<HTMLButtonElement>('.sell .quick-sales-choose')?.focus()
    wasChoosing.current = choosing
  }, [choosing])
  return [choosing, setChoosing]
}

/** Which control takes the focus once the list is drawn again: a moved button follows its row. */
type FocusAfter = { key: number; action: 'earlier' | 'later' | 'remove' } | 'add' | 'save'

/**
 * An organization admin chooses the Sell screen's quick-sale buttons: the products of the
 * catalogue in the order shown, each with its own words or the product's name. Nothing changes
 * until Save, which replaces the whole list; the API's refusals show at their buttons.
 */
export function QuickSaleEditor({
  catalogue,
  onSaved,
  onCancel,
}: {
  catalogue: Catalogue
  onSaved: (list: QuickSale[]) => void
  onCancel: () => void
}) {
  const [buttons, setButtons] = useState(() => editedButtons(catalogue.quickSales))
  const lastKey = useRef(buttons.length)
  const [refusal, setRefusal] = useState<PlacedRefusal>(NOT_REFUSED)
  const [failure, setFailure] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const heading = useFocusOnShow<HTMLHeadingElement>()
  const editor = useRef<HTMLElement>(null)
  const focusAfter = useRef<FocusAfter | null>(null)

  // A control that moved, disappeared or was disabled loses the focus: give it to its successor
  // before the list is painted.
  useLayoutEffect(() => {
    const after = focusAfter.current
    focusAfter.current = null
    if (after === null || editor.current === null) return
    const find = (selector: string) => editor.current!.querySelector<HTMLElement>(selector)
    if (after === 'add' || after === 'save') return void find(`[data-focus="${after}"]`)?.focus()
    const row = `[data-key="${after.key}"]`
    const wanted = find(`${row} [data-action="${after.action}"]`)
    const other = after.action === 'earlier' ? 'later' : 'earlier'
    ;(wanted && !wanted.hasAttribute('disabled') ? wanted : find(`${row} [data-action="${other}"]`))?.focus()
  })

  const full = buttons.length >= MAX_QUICK_SALES
  const add = (button: Omit<EditedButton, 'key'>) => {
    lastKey.current += 1
    setButtons([...buttons, { ...button, key: lastKey.current }])
    if (buttons.length + 1 >= MAX_QUICK_SALES) focusAfter.current = 'save'
  }
  const move = (key: number, by: -1 | 1) => {
    setButtons(moved(buttons, key, by))
    focusAfter.current = { key, action: by < 0 ? 'earlier' : 'later' }
  }
  const remove = (key: number) => {
    const at = buttons.findIndex((b) => b.key === key)
    const next = buttons[at + 1] ?? buttons[at - 1]
    setButtons(buttons.filter((b) => b.key !== key))
    focusAfter.current = next ? { key: next.key, action: 'remove' } : 'add'
  }
  const relabel = (key: number, label: string) =>
    setButtons(buttons.map((b) => (b.key === key ? { ...b, label } : b)))

  const save = async (event: Event) => {
    event.preventDefault()
    setSaving(true)
    setRefusal(NOT_REFUSED)
    setFailure(null)
    const sentKeys = buttons.map((b) => b.key)
    try {
      const saved = await api<components['schemas']['QuickSales']>(
        'PUT',
        '/api/organization/quick-sales/',
        replaceBody(buttons),
      )
      onSaved(saved.quick_sales)
    } catch (e) {
      setSaving(false)
      if (e instanceof ApiError && e.status === 401) return
      if (e instanceof ApiError && e.status === 400) setRefusal(placeRefusal(e.body, sentKeys))
      else setFailure(messageOf(e))
    }
  }

  return (
    <section class="quick-sale-editor" ref={editor} aria-labelledby="quick-sale-editor-heading">
      <h2 id="quick-sale-editor-heading" ref={heading} tabIndex={-1}>
        Quick-sale buttons
      </h2>
      <p class="muted">
        The Sell screen shows these products as buttons that add one to the sale in a click, in this order: up
        to {MAX_QUICK_SALES}.
      </p>
      <form id="quick-sale-list" onSubmit={save} noValidate aria-label="The buttons">
        {buttons.length === 0 ? (
          <p class="muted">No buttons: add a product below, or save to show none.</p>
        ) : (
          <ol class="quick-sale-list">
            {buttons.map((button, at) => (
              <ButtonRow
                key={button.key}
                catalogue={catalogue}
                button={button}
                first={at === 0}
                last={at === buttons.length - 1}
                messages={refusal.buttons.get(button.key)}
                onLabel={(label) => relabel(button.key, label)}
                onMove={(by) => move(button.key, by)}
                onRemove={() => remove(button.key)}
              />
            ))}
          </ol>
        )}
        <FieldMessages messages={refusal.list} />
      </form>
      <AddButton catalogue={catalogue} full={full} onAdd={add} />
      <ErrorLine message={failure && `The buttons could not be saved: ${failure}`} />
      <div class="actions quick-sale-editor-actions">
        <button type="submit" form="quick-sale-list" data-focus="save" disabled={saving}>
          Save
        </button>
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  )
}

/** One button in the list: what it sells, its words, and moving or removing it. */
function ButtonRow({
  catalogue,
  button,
  first,
  last,
  messages,
  onLabel,
  onMove,
  onRemove,
}: {
  catalogue: Catalogue
  button: EditedButton
  first: boolean
  last: boolean
  messages: string[] | undefined
  onLabel: (label: string) => void
  onMove: (by: -1 | 1) => void
  onRemove: () => void
}) {
  const sold = quickSaleProduct(catalogue, {
    purchase_type: button.purchaseType,
    product_id: button.productId,
    label: button.label,
  })
  const kind = PRODUCT_KINDS.find((k) => k.purchaseType === button.purchaseType)
  // A product retired since the button was chosen is not in the catalogue: the button's words name it.
  const name = sold?.product.name ?? button.label
  return (
    <li data-key={button.key} class={messages ? 'refused' : undefined}>
      <span class="quick-sale-product">
        <strong>{name}</strong>
        <span class="muted">
          {kind?.singular}
          {sold ? `, ${sold.product.price}` : ', no longer for sale'}
        </span>
      </span>
      <label>
        Label
        <input
          name="label"
          maxLength={40}
          autocomplete="off"
          aria-label={`Label of ${name}`}
          placeholder={sold?.product.name}
          value={button.label}
          onInput={(e) => onLabel(e.currentTarget.value)}
        />
      </label>
      <span class="quick-sale-moves">
        <button
          type="button"
          class="quiet"
          data-action="earlier"
          aria-label={`Move ${name} earlier`}
          disabled={first}
          onClick={() => onMove(-1)}
        >
          Earlier
        </button>
        <button
          type="button"
          class="quiet"
          data-action="later"
          aria-label={`Move ${name} later`}
          disabled={last}
          onClick={() => onMove(1)}
        >
          Later
        </button>
        <button
          type="button"
          class="quiet"
          data-action="remove"
          aria-label={`Remove ${name}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </span>
      <FieldMessages messages={messages} />
    </li>
  )
}

/** A product of the catalogue to add at the end of the list, with its own words if the admin gives some. */
function AddButton({
  catalogue,
  full,
  onAdd,
}: {
  catalogue: Catalogue
  full: boolean
  onAdd: (button: Omit<EditedButton, 'key'>) => void
}) {
  const kinds = kindsOnSale(catalogue)
  const first = kinds[0]
  const [choice, setChoice] = useState(
    first ? `${first.purchaseType}:${catalogue.products[first.purchaseType][0]!.id}` : '',
  )
  const [label, setLabel] = useState('')

  const submit = (event: Event) => {
    event.preventDefault()
    const [purchaseType, id] = choice.split(':')
    if (full || purchaseType === undefined || id === undefined) return
    onAdd({ purchaseType: purchaseType as QuickSaleType, productId: Number(id), label: label.trim() })
    setLabel('')
  }

  return (
    <>
      <h3 id="quick-sale-add-heading">Add a button</h3>
      <form class="action quick-sale-add" onSubmit={submit} aria-labelledby="quick-sale-add-heading">
        <label class="grow">
          Product
          <select
            name="product"
            data-focus="add"
            value={choice}
            disabled={kinds.length === 0}
            onChange={(e) => setChoice(e.currentTarget.value)}
          >
            <ProductOptions catalogue={catalogue} />
          </select>
        </label>
        <label class="grow">
          Label (empty: the product's name)
          <input
            name="new_label"
            maxLength={40}
            autocomplete="off"
            value={label}
            onInput={(e) => setLabel(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={full || kinds.length === 0}>
          Add button
        </button>
        {full && (
          <p class="muted quick-sale-full">
            {MAX_QUICK_SALES} buttons is the most the Sell screen shows: remove one to add another.
          </p>
        )}
        {kinds.length === 0 && (
          <p class="muted quick-sale-full">
            Nothing is for sale yet: add memberships, entry passes or voucher packs first.
          </p>
        )}
      </form>
    </>
  )
}

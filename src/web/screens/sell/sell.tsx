import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import { useCustomerSearch } from '../../customers.ts'
import { useFocusOnShow } from '../../focus.ts'
import { fullName } from '../../format.ts'
import type { ScreenProps } from '../screen-props.ts'
import {
  creditMethod,
  dayInZone,
  errorsByPath,
  isCreditMethod,
  loadCatalogue,
  PAYMENT_METHODS,
  PRODUCT_KINDS,
  remainderSuggestion,
  saleRequest,
  taxRateLabel,
  usableCredits,
  type Catalogue,
  type DraftLine,
  type DraftPayment,
  type Invoice,
} from './sale-draft.ts'
import type { Credit, Customer, Gym } from '../../types.ts'
import { CustomerFinder } from '../../components/customer-finder.tsx'
import { ErrorLine } from '../../components/error-line.tsx'
import { Receipt } from './sell-receipt.tsx'

/** A sale just posted: the invoice as the API answered it, and who bought. */
interface Sold {
  invoice: Invoice
  customer: Customer | null
}

/** Draft a sale and post it, then its receipt; New sale starts the next one from nothing. */
export function SellScreen({ account, gym }: ScreenProps) {
  const [sold, setSold] = useState<Sold | null>(null)
  if (sold === null)
    return (
      <main class="sell">
        <SaleForm gym={gym} onSold={setSold} />
      </main>
    )
  return (
    <main class="sell">
      <Receipt
        invoice={sold.invoice}
        customer={sold.customer}
        organization={account.organization_name}
        gym={gym}
      />
      <div class="actions receipt-actions">
        <button onClick={() => window.print()}>Print</button>
        <button class="quiet" onClick={() => setSold(null)}>
          New sale
        </button>
      </div>
    </main>
  )
}

/** A refused sale's messages, each under the part of the form it is about. */
type Refusal = Map<string, string[]>

/**
 * The messages at `path` and under it, for the form's field there: under it, each with the rest of
 * its path (`quantity: ...`), except an item's own `non_field_errors`.
 */
function messagesAt(refusal: Refusal, path: string): string[] {
  return [...refusal].flatMap(([at, messages]) => {
    if (at === path) return messages
    if (!at.startsWith(`${path}.`)) return []
    const field = at.slice(path.length + 1)
    return messages.map((m) => (field === 'non_field_errors' ? m : `${field}: ${m}`))
  })
}

/** Where the form shows a refusal's messages; any other path is said under the form, whole. */
const PLACED = ['customer_id', 'line_items', 'discount_codes', 'payments']

function Messages({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null
  return (
    <ul class="error field-errors">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  )
}

const blankRetail = { description: '', unitPrice: '', quantity: '1', taxRateId: '' }

/**
 * The sale being drafted: the customer (or none, for retail alone), its lines, a discount code and
 * one or two payments. The API prices it when it is posted and says in its own words what it
 * refuses, each message at the field it names.
 */
function SaleForm({ gym, onSold }: { gym: Gym; onSold: (sold: Sold) => void }) {
  const [catalogue, setCatalogue] = useState<Catalogue | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [customer, setCustomer] = useState<Customer | null>(null)
  const [lines, setLines] = useState<DraftLine[]>([])
  const [choice, setChoice] = useState('')
  const [choiceQuantity, setChoiceQuantity] = useState('1')
  const [retail, setRetail] = useState(blankRetail)
  const [discountCode, setDiscountCode] = useState('')
  const [credits, setCredits] = useState<Credit[]>([])
  const [creditsError, setCreditsError] = useState<string | null>(null)
  const [first, setFirst] = useState<DraftPayment>({ method: PAYMENT_METHODS[0].method, amount: '' })
  /** The second payment; its amount is null until typed, following the remainder meanwhile. */
  const [second, setSecond] = useState<{ method: string; amount: string | null } | null>(null)
  const [refusal, setRefusal] = useState<Refusal>(new Map())
  const [failure, setFailure] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const productSelect = useRef<HTMLSelectElement>(null)
  /** Each line's key for the list, kept while the lines before it are removed. */
  const lastLineKey = useRef(0)
  const addSecondPayment = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    loadCatalogue()
      .then((loaded) => {
        setCatalogue(loaded)
        const firstKind = PRODUCT_KINDS.find((kind) => loaded.products[kind.purchaseType].length > 0)
        if (firstKind)
          setChoice(`${firstKind.purchaseType}:${loaded.products[firstKind.purchaseType][0]!.id}`)
      })
      .catch((e: unknown) => {
        if (!(e instanceof ApiError && e.status === 401)) setLoadError(messageOf(e))
      })
  }, [])

  useEffect(() => {
    if (customer === null) return
    let current = true
    usableCredits(customer.id)
      .then((usable) => {
        if (current) setCredits(usable)
      })
      .catch((e: unknown) => {
        if (current && !(e instanceof ApiError && e.status === 401)) setCreditsError(messageOf(e))
      })
    return () => {
      current = false
      setCredits([])
      setCreditsError(null)
    }
  }, [customer])

  if (loadError !== null) return <ErrorLine message={`The products could not be read: ${loadError}`} />
  if (catalogue === null) return <p>Loading the products…</p>

  const remainder = remainderSuggestion(lines, first.amount)
  const payments: DraftPayment[] =
    second === null ? [first] : [first, { method: second.method, amount: second.amount ?? remainder }]
  const methods = [...PAYMENT_METHODS, ...credits.map(creditMethod)]
  /** Another customer, or none: a payment from the last one's credit goes back to the usual method. */
  const chooseCustomer = (chosen: Customer | null) => {
    setCustomer(chosen)
    if (isCreditMethod(first.method)) setFirst({ ...first, method: PAYMENT_METHODS[0].method })
    if (second !== null && isCreditMethod(second.method))
      setSecond({ ...second, method: PAYMENT_METHODS[1].method })
  }
  const anyProduct = PRODUCT_KINDS.some((kind) => catalogue.products[kind.purchaseType].length > 0)

  const changeLine = (index: number, change: Partial<DraftLine>) =>
    setLines(lines.map((line, i) => (i === index ? ({ ...line, ...change } as DraftLine) : line)))
  const removeLine = (index: number) => {
    setLines(lines.filter((_, i) => i !== index))
    // Its own errors went with it; the others' indexes no longer match the request they were about.
    setRefusal(new Map())
    productSelect.current?.focus()
  }

  const addProduct = (event: Event) => {
    event.preventDefault()
    const [purchaseType, id] = choice.split(':')
    const kind = PRODUCT_KINDS.find((k) => k.purchaseType === purchaseType)
    const product = kind && catalogue.products[kind.purchaseType].find((p) => String(p.id) === id)
    if (!kind || !product) return
    setLines([
      ...lines,
      {
        key: ++lastLineKey.current,
        retail: false,
        kind,
        product,
        quantity: choiceQuantity,
        startDate: dayInZone(gym.time_zone),
      },
    ])
    setChoiceQuantity('1')
  }
  const addRetail = (event: Event) => {
    event.preventDefault()
    setLines([
      ...lines,
      {
        key: ++lastLineKey.current,
        retail: true,
        description: retail.description,
        unitPrice: retail.unitPrice,
        quantity: retail.quantity,
        taxRateId: retail.taxRateId === '' ? null : Number(retail.taxRateId),
      },
    ])
    setRetail(blankRetail)
  }

  const post = async (event: Event) => {
    event.preventDefault()
    setSending(true)
    setRefusal(new Map())
    setFailure(null)
    try {
      const invoice = await api<Invoice>(
        'POST',
        '/api/invoices/',
        saleRequest({ customer, locationId: gym.id, lines, discountCode, payments }),
      )
      onSold({ invoice, customer })
    } catch (e) {
      setSending(false)
      if (e instanceof ApiError && e.status === 401) return
      const byPath = e instanceof ApiError && e.status === 400 ? errorsByPath(e.body) : new Map()
      if (byPath.size > 0) setRefusal(byPath)
      else setFailure(messageOf(e))
    }
  }

  const unplaced = [...refusal]
    .filter(([path]) => !PLACED.some((placed) => path === placed || path.startsWith(`${placed}.`)))
    .flatMap(([path, messages]) => messages.map((m) => `${path}: ${m}`))
  const refused = refusal.size > 0 || failure !== null
  const taxRateName = (id: number | null) => {
    const rate = catalogue.taxRates.find((r) => r.id === id)
    return rate === undefined ? 'no tax' : taxRateLabel(rate)
  }

  return (
    <>
      <section aria-labelledby="sale-customer">
        <h2 id="sale-customer">Customer</h2>
        {customer === null ? (
          <CustomerChooser
            onChoose={(c) => {
              chooseCustomer(c)
              productSelect.current?.focus()
            }}
          />
        ) : (
          <p class="chosen">
            <span>{fullName(customer.first_name, customer.last_name)}</span>
            <button type="button" class="small quiet" onClick={() => chooseCustomer(null)}>
              Change customer
            </button>
          </p>
        )}
        <Messages messages={messagesAt(refusal, 'customer_id')} />
      </section>

      <section aria-labelledby="sale-products">
        <h2 id="sale-products">Products</h2>
        <form class="action" onSubmit={addProduct} aria-label="Add a product">
          <label>
            Product
            <select
              ref={productSelect}
              name="product"
              value={choice}
              disabled={!anyProduct}
              onChange={(e) => setChoice(e.currentTarget.value)}
            >
              {PRODUCT_KINDS.filter((kind) => catalogue.products[kind.purchaseType].length > 0).map(
                (kind) => (
                  <optgroup key={kind.purchaseType} label={kind.label}>
                    {catalogue.products[kind.purchaseType].map((p) => (
                      <option key={p.id} value={`${kind.purchaseType}:${p.id}`}>
                        {p.name}, {p.price}
                      </option>
                    ))}
                  </optgroup>
                ),
              )}
            </select>
          </label>
          <label>
            Quantity
            <input
              type="number"
              min={1}
              name="quantity"
              class="quantity"
              value={choiceQuantity}
              onInput={(e) => setChoiceQuantity(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={!anyProduct}>
            Add
          </button>
        </form>
        {!anyProduct && (
          <p class="muted">
            Nothing is for sale yet: an admin adds memberships, entry passes and voucher packs.
          </p>
        )}
        <form class="action" onSubmit={addRetail} aria-label="Add a retail item">
          <label>
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

      <form class="sale" onSubmit={post} noValidate aria-label="The sale">
        <section aria-labelledby="sale-lines">
          <h2 id="sale-lines">In this sale</h2>
          {lines.length === 0 ? (
            <p class="muted">Nothing yet: add a product or a retail item.</p>
          ) : (
            <ul class="sale-lines">
              {lines.map((line, index) => {
                const name = line.retail ? line.description : line.product.name
                return (
                  <li key={line.key}>
                    <span class="item">
                      {name}
                      <span class="muted">
                        {line.retail
                          ? ` ${line.unitPrice} each, ${taxRateName(line.taxRateId)}`
                          : ` ${line.product.price} each`}
                      </span>
                    </span>
                    <label class="inline">
                      Quantity
                      <input
                        type="number"
                        min={1}
                        class="quantity"
                        aria-label={`Quantity of ${name}`}
                        value={line.quantity}
                        onInput={(e) => changeLine(index, { quantity: e.currentTarget.value })}
                      />
                    </label>
                    {!line.retail && line.kind.purchaseType === 'MIN' && (
                      <label class="inline">
                        Starts
                        <input
                          type="date"
                          aria-label={`${name} starts`}
                          value={line.startDate}
                          onInput={(e) => changeLine(index, { startDate: e.currentTarget.value })}
                        />
                      </label>
                    )}
                    <button
                      type="button"
                      class="small quiet"
                      aria-label={`Remove ${name}`}
                      onClick={() => removeLine(index)}
                    >
                      Remove
                    </button>
                    <Messages messages={messagesAt(refusal, `line_items.${index}`)} />
                  </li>
                )
              })}
            </ul>
          )}
          <Messages messages={refusal.get('line_items') ?? []} />
          <p class="muted">
            Discounts and tax are worked out when the sale is posted; the receipt shows them.
          </p>
        </section>

        <section aria-labelledby="sale-discount">
          <h2 id="sale-discount">Discount</h2>
          <div class="action">
            <label>
              Discount code (optional)
              <input
                name="discount_code"
                autocomplete="off"
                value={discountCode}
                onInput={(e) => setDiscountCode(e.currentTarget.value)}
              />
            </label>
          </div>
          <Messages messages={messagesAt(refusal, 'discount_codes')} />
        </section>

        <section aria-labelledby="sale-payments">
          <h2 id="sale-payments">Payment</h2>
          <PaymentFields
            legend="First payment"
            methods={methods}
            payment={first}
            onChange={setFirst}
            messages={messagesAt(refusal, 'payments.0')}
          />
          {second === null ? (
            <button
              ref={addSecondPayment}
              type="button"
              class="quiet"
              onClick={() => setSecond({ method: PAYMENT_METHODS[1].method, amount: null })}
            >
              Add a second payment
            </button>
          ) : (
            <PaymentFields
              legend="Second payment"
              methods={methods}
              payment={payments[1]!}
              onChange={(p) => setSecond({ method: p.method, amount: p.amount })}
              onRemove={() => {
                setSecond(null)
                // Once the button is drawn again in the fields' place.
                setTimeout(() => addSecondPayment.current?.focus())
              }}
              messages={messagesAt(refusal, 'payments.1')}
              takesFocus
            />
          )}
          {creditsError && (
            <p class="error">The customer's credits could not be read, to pay with: {creditsError}</p>
          )}
          <Messages messages={refusal.get('payments') ?? []} />
        </section>

        {refused && (
          <div class="error" role="alert">
            <p>The sale was not posted; nothing was recorded.</p>
            {failure !== null && <p>{failure}</p>}
            <Messages messages={unplaced} />
          </div>
        )}
        <div class="actions">
          <button type="submit" disabled={sending}>
            Post the sale
          </button>
        </div>
      </form>
    </>
  )
}

/** One payment's method (a way to pay at the desk, or one of the customer's credits) and amount. */
function PaymentFields({
  legend,
  methods,
  payment,
  onChange,
  onRemove,
  messages,
  takesFocus = false,
}: {
  legend: string
  methods: Array<{ method: string; label: string }>
  payment: DraftPayment
  onChange: (payment: DraftPayment) => void
  onRemove?: () => void
  messages: string[]
  /** The method takes the focus when the fields show: a payment just added. */
  takesFocus?: boolean
}) {
  const method = useFocusOnShow<HTMLSelectElement>()
  return (
    <fieldset class="payment">
      <legend>{legend}</legend>
      <div class="action">
        <label>
          Method
          <select
            ref={takesFocus ? method : undefined}
            value={payment.method}
            onChange={(e) => onChange({ ...payment, method: e.currentTarget.value })}
          >
            {methods.map((m) => (
              <option key={m.method} value={m.method}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Amount
          <input
            inputMode="decimal"
            class="amount"
            autocomplete="off"
            value={payment.amount}
            onInput={(e) => onChange({ ...payment, amount: e.currentTarget.value })}
          />
        </label>
        {onRemove && (
          <button type="button" class="small quiet" onClick={onRemove}>
            Remove the second payment
          </button>
        )}
      </div>
      <Messages messages={messages} />
    </fieldset>
  )
}

/** The customer found by name, email or barcode, or none. */
function CustomerChooser({ onChoose }: { onChoose: (customer: Customer) => void }) {
  const searching = useCustomerSearch()
  return (
    <>
      <CustomerFinder
        searching={searching}
        submitLabel="Find"
        formLabel="Find the customer"
        onChoose={onChoose}
      />
      <p class="muted">No customer chosen: a sale of retail items only.</p>
    </>
  )
}

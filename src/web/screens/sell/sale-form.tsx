import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import type { Customer } from '../../types.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import type { ScreenProps } from '../screen-props.ts'
import { AddProducts, type RetailItem } from './add-products.tsx'
import { taxRateLabel, type Catalogue, type Product, type ProductKind } from './catalogue.ts'
import { CustomerPart } from './customer-part.tsx'
import { DiscountPart } from './discount-part.tsx'
import { placeErrors, type Place } from './error-places.ts'
import { PaymentsPart } from './payments-part.tsx'
import { QuickSaleButtons } from './quick-sale-buttons.tsx'
import { QuickSaleEditor, useChoosingQuickSales } from './quick-sale-editor.tsx'
import {
  creditMethod,
  dayInZone,
  isCreditMethod,
  otherMethod,
  PAYMENT_METHODS,
  saleBody,
  type DraftLine,
  type DraftPayment,
  type Invoice,
  type SaleDraft,
} from './sale-draft.ts'
import { SaleLines } from './sale-lines.tsx'
import { changeSale, startOver, useSale } from './sale-store.ts'
import { SummaryBar } from './summary-bar.tsx'
import { useCatalogue, useCredits, usePreselectedCustomer } from './use-sale-data.ts'
import { useQuote, type Quote } from './use-quote.ts'

/** A sale just posted: the invoice as the API answered it, and who bought. */
export interface Sold {
  invoice: Invoice
  customer: Customer | null
}

/**
 * Each payment's amount: as typed, else what the sale leaves to pay (the quote asked with the
 * typed payments alone) for the first that follows it, and nothing for any other.
 */
function paymentAmounts(payments: DraftPayment[], quote: Quote | null): string[] {
  let taken = false
  return payments.map((payment) => {
    if (payment.amount !== null) return payment.amount
    if (quote === null) return ''
    if (taken) return '0.00'
    taken = true
    return quote.left_to_pay
  })
}

/** The typed payments, sent to the quote, with their indexes in the draft. */
const typedPayments = (sale: SaleDraft) =>
  sale.payments.flatMap((payment, index) =>
    payment.amount === null ? [] : [{ index, method: payment.method, amount: payment.amount }],
  )

/** What the refusal of a sale was about: its body, and which line and payment each index meant. */
interface Refused {
  body: unknown
  lineKeys: number[]
  paymentIndexes: number[]
}

export function SaleForm({
  account,
  gym,
  place,
  onSold,
}: Pick<ScreenProps, 'account' | 'gym' | 'place'> & { onSold: (sold: Sold) => void }) {
  const sale = useSale(`${account.email}:${gym.id}`)
  const { catalogue, error: loadError, setQuickSales } = useCatalogue()
  const { credits, error: creditsError } = useCredits(sale.customer)
  const [placeError, setPlaceError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const [postRefusal, setPostRefusal] = useState<Refused | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [choosingQuickSales, setChoosingQuickSales] = useChoosingQuickSales()

  const chooseCustomer = (customer: Customer | null) =>
    changeSale((draft) => ({
      ...draft,
      customer,
      // Another customer, or none: a payment from the last one's credit goes back to a usual method.
      payments: draft.payments.map((p, i) =>
        isCreditMethod(p.method) ? { ...p, method: PAYMENT_METHODS[i]!.method } : p,
      ),
    }))
  usePreselectedCustomer(place.customerId, sale.customer, chooseCustomer, setPlaceError)

  const typed = typedPayments(sale)
  const quoteBody = sale.lines.length === 0 ? null : saleBody(sale, gym.id, typed)
  const quoted = useQuote(quoteBody, {
    lineKeys: sale.lines.map((line) => line.key),
    paymentIndexes: typed.map((payment) => payment.index),
  })
  const request = quoteBody === null ? null : JSON.stringify(quoteBody)
  // A refusal of the post is about the sale as it was: a change makes it the quote's to say.
  useEffect(() => {
    setPostRefusal(null)
    setFailure(null)
  }, [request])

  if (loadError !== null) return <ErrorLine message={`The products could not be read: ${loadError}`} />
  if (catalogue === null) return <p class="sell-loading">Loading the products…</p>
  // The sale in progress waits in its store while an admin chooses the quick-sale buttons.
  if (choosingQuickSales)
    return (
      <QuickSaleEditor
        catalogue={catalogue}
        onSaved={(list) => {
          setQuickSales(list)
          setChoosingQuickSales(false)
        }}
        onCancel={() => setChoosingQuickSales(false)}
      />
    )

  const quote = quoted.current ? quoted.quote : null
  const amounts = paymentAmounts(sale.payments, quote)
  const refused: Refused | null =
    postRefusal ?? (quoted.refusal ? { body: quoted.refusal, ...quoted.meta } : null)
  const errors: Map<Place, string[]> = refused
    ? placeErrors(refused.body, refused.lineKeys, refused.paymentIndexes)
    : new Map()
  const priced = new Map(quote ? sale.lines.map((line, i) => [line.key, quote.line_items[i]!] as const) : [])
  const unpaid =
    quote && typed.length === sale.payments.length && quote.left_to_pay !== '0.00' ? quote.left_to_pay : null
  const failureWords = failure ?? (quoted.current ? quoted.failure : null)
  const saleMessages = [
    ...(errors.get('sale') ?? []),
    ...(failureWords ? [`The sale could not be priced or posted: ${failureWords}`] : []),
  ]

  const addLine = (
    line:
      Omit<Extract<DraftLine, { retail: false }>, 'key'> | Omit<Extract<DraftLine, { retail: true }>, 'key'>,
  ) =>
    changeSale((draft) => ({
      ...draft,
      lastKey: draft.lastKey + 1,
      lines: [...draft.lines, { ...line, key: draft.lastKey + 1 } as DraftLine],
    }))
  const addProduct = (kind: ProductKind, product: Product, quantity = '1') =>
    addLine({ retail: false, kind, product, quantity, startDate: dayInZone(gym.time_zone) })
  const addRetail = (item: RetailItem) => addLine({ retail: true, ...item })
  const changeLine = (key: number, change: Partial<DraftLine>) =>
    changeSale((draft) => ({
      ...draft,
      lines: draft.lines.map((line) => (line.key === key ? ({ ...line, ...change } as DraftLine) : line)),
    }))
  const removeLine = (key: number) => {
    changeSale((draft) => ({ ...draft, lines: draft.lines.filter((line) => line.key !== key) }))
    focusProducts()
  }
  const changePayment = (index: number, payment: DraftPayment) =>
    changeSale((draft) => ({ ...draft, payments: draft.payments.map((p, i) => (i === index ? payment : p)) }))
  // The first keeps what it shows; the second takes what that leaves, by the other usual method.
  const addSecond = () =>
    changeSale((draft) => ({
      ...draft,
      payments: [
        { ...draft.payments[0]!, amount: draft.payments[0]!.amount ?? amounts[0] ?? null },
        { method: otherMethod(draft.payments[0]!.method), amount: null },
      ],
    }))
  // One payment again: it pays the whole total once more.
  const removeSecond = () =>
    changeSale((draft) => ({ ...draft, payments: [{ ...draft.payments[0]!, amount: null }] }))

  const post = async (event: Event) => {
    event.preventDefault()
    setSending(true)
    setFailure(null)
    const settled = await quoted.settle()
    if (settled.quote === null) return setSending(false)
    const resolved = paymentAmounts(sale.payments, settled.quote)
    // A payment that only followed a total of nothing is not a payment.
    const sent = sale.payments
      .map((payment, index) => ({ index, method: payment.method, amount: resolved[index]! }))
      .filter((payment) => !(sale.payments[payment.index]!.amount === null && payment.amount === '0.00'))
    try {
      const invoice = await api<Invoice>('POST', '/api/invoices/', saleBody(sale, gym.id, sent))
      startOver()
      onSold({ invoice, customer: sale.customer })
    } catch (e) {
      setSending(false)
      if (e instanceof ApiError && e.status === 401) return
      if (e instanceof ApiError && e.status === 400)
        setPostRefusal({
          body: e.body,
          lineKeys: sale.lines.map((line) => line.key),
          paymentIndexes: sent.map((payment) => payment.index),
        })
      else setFailure(messageOf(e))
    }
  }

  return (
    <>
      <div class="sell-build">
        <ErrorLine message={placeError} />
        <QuickSaleButtons
          catalogue={catalogue}
          onAdd={(kind, product) => addProduct(kind, product)}
          onChoose={account.is_organization_admin ? () => setChoosingQuickSales(true) : undefined}
        />
        <CustomerPart
          customer={sale.customer}
          onChoose={(customer) => {
            chooseCustomer(customer)
            if (customer !== null) focusProducts()
          }}
          messages={errors.get('customer')}
        />
        <AddProducts catalogue={catalogue} onAdd={addProduct} onAddRetail={addRetail} />
      </div>
      <form id="sale-form" class="sale" onSubmit={post} noValidate aria-label="The sale">
        <SaleLines
          lines={sale.lines}
          priced={priced}
          errors={errors}
          taxRateName={(id) => taxRateName(catalogue, id)}
          onChange={changeLine}
          onRemove={removeLine}
        />
        <DiscountPart
          discounts={catalogue.discounts}
          code={sale.discountCode}
          onChange={(discountCode) => changeSale((draft) => ({ ...draft, discountCode }))}
          messages={errors.get('discount')}
        />
        <PaymentsPart
          payments={sale.payments}
          shown={amounts}
          methods={[...PAYMENT_METHODS, ...credits.map(creditMethod)]}
          errors={errors}
          creditsError={creditsError}
          onChange={changePayment}
          onAddSecond={addSecond}
          onRemoveSecond={removeSecond}
        />
      </form>
      <SummaryBar
        quote={quote}
        refused={quoted.current && quoted.quote === null}
        empty={sale.lines.length === 0}
        unpaid={unpaid}
        sending={sending}
        messages={saleMessages}
        onStartOver={startOver}
      />
    </>
  )
}

/** The product list takes the focus once drawn: after a customer is chosen, or a line removed. */
const focusProducts = () =>
  setTimeout(() => document.querySelector<HTMLSelectElement>('.sell select[name="product"]')?.focus())

function taxRateName(catalogue: Catalogue, id: number | null): string {
  const rate = catalogue.taxRates.find((r) => r.id === id)
  return rate === undefined ? 'no tax' : taxRateLabel(rate)
}

/**
 * The sale priced by the API as it is built: POST /api/invoices/quote/ runs the very checks and
 * arithmetic that posting runs and records nothing. Asked a moment after the last change (each
 * keystroke does not cost a request), and only the answer to the latest request is shown.
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import type { components } from '../../api-schema.ts'

type Schemas = components['schemas']

/** 200 from the quote: the invoice the sale would make, and what the payments sent leave to pay. */
export type Quote = Schemas['InvoiceQuote']

export type QuoteLine = Quote['line_items'][number]

/** Which line and payment of the draft each index of a request meant. */
export interface QuoteMeta {
  lineKeys: number[]
  paymentIndexes: number[]
}

export interface QuoteState {
  /** The request this answers, as sent; null before any. */
  request: string | null
  meta: QuoteMeta
  quote: Quote | null
  /** The 400's body: the sale as drafted would be refused. */
  refusal: unknown
  /** The quote could not be had (no answer, a server error), in words. */
  failure: string | null
}

const NONE: QuoteState = {
  request: null,
  meta: { lineKeys: [], paymentIndexes: [] },
  quote: null,
  refusal: null,
  failure: null,
}

/** How long after the last change the quote is asked for. */
const SETTLE_MS = 250

/**
 * The quote of `body` (null: nothing to price), with `current` telling whether it answers the
 * body as it is now; `settle` asks at once and answers the quote of the body as it is now. `meta`
 * is kept with the answer to each request.
 */
export function useQuote(body: object | null, meta: QuoteMeta) {
  const request = body === null ? null : JSON.stringify(body)
  const [state, setState] = useState<QuoteState>(NONE)
  const latest = useRef(0)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const ask = async (sent: string, meta: QuoteMeta): Promise<QuoteState> => {
    const asked = ++latest.current
    let answer: QuoteState
    try {
      const quote = await api<Quote>('POST', '/api/invoices/quote/', JSON.parse(sent))
      answer = { request: sent, meta, quote, refusal: null, failure: null }
    } catch (e) {
      answer =
        e instanceof ApiError && e.status === 400
          ? { request: sent, meta, quote: null, refusal: e.body, failure: null }
          : { request: sent, meta, quote: null, refusal: null, failure: messageOf(e) }
    }
    if (asked === latest.current) setState(answer)
    return answer
  }

  useEffect(() => {
    if (request === null) {
      latest.current++
      setState(NONE)
      return
    }
    timer.current = setTimeout(() => void ask(request, meta), SETTLE_MS)
    return () => clearTimeout(timer.current)
  }, [request])

  const settle = (): Promise<QuoteState> => {
    clearTimeout(timer.current)
    if (request === null) return Promise.resolve(NONE)
    return state.request === request ? Promise.resolve(state) : ask(request, meta)
  }
  return { ...state, current: state.request === request, settle }
}

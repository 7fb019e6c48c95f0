import { useEffect, useRef, useState } from 'preact/hooks'
import { api, messageOf, query } from './api.ts'
import type { FoundCustomer } from './components/customer-summary.tsx'
import type { Page } from './types.ts'

/** As many as a glance down the list takes in; a longer list asks for more of the name instead. */
const FOUND_SHOWN = 10
/** A pause in the typing this long searches: each key does not send a request of its own. */
export const SEARCH_AFTER_MS = 200

/** The active customers whose name, email, barcode or phone holds every word of `text`. */
export const findCustomers = (text: string): Promise<Page<FoundCustomer>> =>
  api<Page<FoundCustomer>>(
    'GET',
    `/api/customers/${query({ search: text, is_active: true, page_size: FOUND_SHOWN })}`,
  )

/** The active customer whose barcode is exactly `text`, if any. */
const holderOf = async (text: string): Promise<FoundCustomer | null> =>
  (
    await api<Page<FoundCustomer>>(
      'GET',
      `/api/customers/${query({ barcode: text, is_active: true, page_size: 1 })}`,
    )
  ).results[0] ?? null

/** How many a search found, in words, asking for more of the name when not all are shown. */
export function foundSummary(found: Page<unknown>): string {
  if (found.count === 0) return 'No customer found.'
  if (found.count > found.results.length)
    return `The first ${found.results.length} of ${found.count} found: add to the name to narrow it.`
  return `${found.count} found.`
}

/**
 * A customer search's state for a screen: the text typed, what the last search found, the API's
 * words when it refused, and `search` for the form's submit (an empty text searches nothing). It
 * searches as staff type, once they pause, and the answer to the latest text is the one shown
 * (an earlier one arriving late is dropped). `exact` is the customer whose barcode is the text
 * typed, once: the screen opens them at once and calls `takeExact`.
 */
export function useCustomerSearch() {
  const [text, setTypedText] = useState('')
  const [found, setFound] = useState<Page<FoundCustomer> | null>(null)
  const [exact, setExact] = useState<FoundCustomer | null>(null)
  const [error, setError] = useState<string | null>(null)
  const latest = useRef(0)
  const pause = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(pause.current), [])

  const run = async (typed: string) => {
    clearTimeout(pause.current)
    const asked = ++latest.current
    const words = typed.trim()
    if (words === '') {
      setFound(null)
      setError(null)
      return
    }
    try {
      const [matches, holder] = await Promise.all([findCustomers(words), holderOf(words)])
      if (asked !== latest.current) return
      setError(null)
      setFound(matches)
      setExact(holder)
    } catch (e) {
      if (asked === latest.current) setError(messageOf(e))
    }
  }
  const setText = (typed: string) => {
    setTypedText(typed)
    clearTimeout(pause.current)
    pause.current = setTimeout(() => void run(typed), SEARCH_AFTER_MS)
  }
  /** Enter: at once, without waiting for the pause. */
  const search = (event: Event) => {
    event.preventDefault()
    void run(text)
  }
  /** Back to an empty search, once a match has been taken. */
  const clear = () => {
    ++latest.current
    clearTimeout(pause.current)
    setFound(null)
    setExact(null)
    setTypedText('')
  }
  const takeExact = () => setExact(null)
  return { text, setText, found, exact, takeExact, error, search, clear }
}

/** What useCustomerSearch gives a screen. */
export type CustomerSearch = ReturnType<typeof useCustomerSearch>

import { useState } from 'preact/hooks'
import { api, messageOf, query } from './api.ts'
import type { Customer, Page } from './types.ts'

/** As many as a glance down the list takes in; a longer list asks for more of the name instead. */
const FOUND_SHOWN = 10

/** The active customers whose name, email or barcode holds every word of `text`. */
export const findCustomers = (text: string): Promise<Page<Customer>> =>
  api<Page<Customer>>(
    'GET',
    `/api/customers/${query({ search: text, is_active: true, page_size: FOUND_SHOWN })}`,
  )

/** How many a search found, in words, asking for more of the name when not all are shown. */
export function foundSummary(found: Page<unknown>): string {
  if (found.count === 0) return 'No customer found.'
  if (found.count > found.results.length)
    return `The first ${found.results.length} of ${found.count} found: add to the name to narrow it.`
  return `${found.count} found.`
}

/**
 * A customer search's state for a screen: the text typed, what the last search found, the API's
 * words when it refused, and `search` for the form's submit (an empty text searches nothing).
 */
export function useCustomerSearch() {
  const [text, setText] = useState('')
  const [found, setFound] = useState<Page<Customer> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const search = async (event: Event) => {
    event.preventDefault()
    if (text.trim() === '') return
    setError(null)
    try {
      setFound(await findCustomers(text))
    } catch (e) {
      setError(messageOf(e))
    }
  }
  /** Back to an empty search, once a match has been taken. */
  const clear = () => {
    setFound(null)
    setText('')
  }
  return { text, setText, found, error, search, clear }
}

/** What useCustomerSearch gives a screen. */
export type CustomerSearch = ReturnType<typeof useCustomerSearch>

/** What the Sell screen reads besides the quote: the catalogue, the customer's credits, a customer named by the place. */
import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import type { Credit, Customer } from '../../types.ts'
import { loadCatalogue, usableCredits, type Catalogue, type QuickSale } from './catalogue.ts'

/**
 * The catalogue, or the words saying why it could not be read; `setQuickSales` shows the buttons an
 * admin has just saved, as PUT answered them.
 */
export function useCatalogue() {
  const [catalogue, setCatalogue] = useState<Catalogue | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    loadCatalogue()
      .then(setCatalogue)
      .catch((e: unknown) => {
        if (!(e instanceof ApiError && e.status === 401)) setError(messageOf(e))
      })
  }, [])
  const setQuickSales = (quickSales: QuickSale[]) =>
    setCatalogue((shown) => shown && { ...shown, quickSales })
  return { catalogue, error, setQuickSales }
}

/** The customer's credits that can pay now (none without a customer). */
export function useCredits(customer: Customer | null) {
  const [credits, setCredits] = useState<Credit[]>([])
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (customer === null) return
    let current = true
    usableCredits(customer.id)
      .then((usable) => current && setCredits(usable))
      .catch((e: unknown) => {
        if (current && !(e instanceof ApiError && e.status === 401)) setError(messageOf(e))
      })
    return () => {
      current = false
      setCredits([])
      setError(null)
    }
  }, [customer?.id])
  return { credits, error }
}

/**
 * The customer the screen was opened for (a check-in card's "Sell a day pass"), read and chosen
 * once as it opens; `onError` says why they could not be.
 */
export function usePreselectedCustomer(
  customerId: number | undefined,
  chosen: Customer | null,
  choose: (customer: Customer) => void,
  onError: (message: string) => void,
) {
  useEffect(() => {
    if (customerId === undefined || chosen?.id === customerId) return
    api<Customer>('GET', `/api/customers/${customerId}/`)
      .then(choose)
      .catch((e: unknown) => {
        if (!(e instanceof ApiError && e.status === 401))
          onError(`The customer could not be read: ${messageOf(e)}`)
      })
  }, [customerId])
}

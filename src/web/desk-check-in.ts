import { api, ApiError, messageOf } from './api.ts'
import type { components } from './api-schema.ts'

type Schemas = components['schemas']

/**
 * The desk's check-ins by the door's rules (POST /api/customers/<id>/check-in/ and the desk's scan,
 * POST /api/customers/check-in-by-barcode/) and what each answered, for the card. Shared by the
 * check-in screen, the customer finder and the customer page, so each shows the same card.
 */

/** 201: the check-in record, and what the card shows beside it. */
export type DeskCheckIn = Schemas['DeskCheckIn']

export type DeskRefusalCode = DeskRefusal['error']

export type DeskReason = DeskRefusal['reasons'][number]

/** 400: the door's code, why in words, and whom it was for. */
export type DeskRefusal = Schemas['DeskCheckInRefusal']

/** What one check-in answered: in, already in (amber), not in (red), no such card, or no answer. */
export type ScanResult =
  | { kind: 'checked_in'; checkIn: DeskCheckIn }
  | { kind: 'duplicate'; refusal: DeskRefusal }
  | { kind: 'refused'; refusal: DeskRefusal }
  | { kind: 'not_found'; barcode: string }
  | { kind: 'failed'; message: string }

const isRefusal = (body: unknown): body is DeskRefusal =>
  typeof body === 'object' && body !== null && 'error' in body && 'customer_id' in body

/** The answer as the card reads it; null when the session ended (the login shows instead). */
async function answered(request: Promise<DeskCheckIn>, barcode = ''): Promise<ScanResult | null> {
  try {
    return { kind: 'checked_in', checkIn: await request }
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null
    if (e instanceof ApiError && isRefusal(e.body))
      return e.body.error === 'duplicate_check_in'
        ? { kind: 'duplicate', refusal: e.body }
        : { kind: 'refused', refusal: e.body }
    if (e instanceof ApiError && e.status === 404 && barcode !== '') return { kind: 'not_found', barcode }
    return { kind: 'failed', message: messageOf(e) }
  }
}

export const checkInById = (customerId: number, gymId: number) =>
  answered(api<DeskCheckIn>('POST', `/api/customers/${customerId}/check-in/`, { location_id: gymId }))

export const checkInByBarcode = (barcode: string, gymId: number) =>
  answered(
    api<DeskCheckIn>('POST', '/api/customers/check-in-by-barcode/', { barcode, location_id: gymId }),
    barcode,
  )

/** Whom a result is about: their id and name, when known. */
export function resultCustomer(result: ScanResult): { id: number; name: string } | null {
  if (result.kind === 'checked_in')
    return {
      id: result.checkIn.customer_id,
      name: `${result.checkIn.customer_first_name} ${result.checkIn.customer_last_name}`,
    }
  if (result.kind === 'duplicate' || result.kind === 'refused')
    return {
      id: result.refusal.customer_id,
      name: `${result.refusal.customer_first_name} ${result.refusal.customer_last_name}`,
    }
  return null
}

/** The card's colour: green in (a notice said on it), amber already inside, red not in. */
export function resultTone(result: ScanResult): 'ok' | 'notice' | 'refused' {
  if (result.kind === 'checked_in') return 'ok'
  if (result.kind === 'duplicate') return 'notice'
  return 'refused'
}

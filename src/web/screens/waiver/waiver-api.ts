import { api, ApiError } from '../../api.ts'
import type { components } from '../../api-schema.ts'

type Schemas = components['schemas']

/** The organization's current waiver text, as /api/waiver-texts/current/ answers it. */
export type WaiverText = Schemas['WaiverText']

/** What the signer answers, as the signing takes it. */
export interface Answers {
  first_name: string
  last_name: string
  birthday: string
  email: string
  telephone: string
  guardian_name: string
}

export const NO_ANSWERS: Answers = {
  first_name: '',
  last_name: '',
  birthday: '',
  email: '',
  telephone: '',
  guardian_name: '',
}

/** 201 from /api/waivers/sign/. */
export type WaiverSigned = Schemas['WaiverSigned']

/** The customer a card's "Sign waiver" opens the screen for: what the form starts with. */
type CustomerAnswers = Pick<
  Schemas['Customer'],
  'first_name' | 'last_name' | 'birthday' | 'email' | 'telephone'
>

/** The current text; null before an admin has written one (404). */
export async function loadCurrentText(): Promise<WaiverText | null> {
  try {
    return await api<WaiverText>('GET', '/api/waiver-texts/current/')
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null
    throw e
  }
}

export async function loadCustomerAnswers(customerId: number): Promise<Answers> {
  const c = await api<CustomerAnswers>('GET', `/api/customers/${customerId}/`)
  return { ...NO_ANSWERS, ...c, email: c.email ?? '', guardian_name: '' }
}

export const signWaiver = (version: number, answers: Answers, signature: string) =>
  api<WaiverSigned>('POST', '/api/waivers/sign/', {
    waiver_text_version: version,
    ...answers,
    signature,
  })

export const writeWaiverText = (text: string, validForDays: number | null) =>
  api<WaiverText>('POST', '/api/waiver-texts/', { text, valid_for_days: validForDays })

/** A refusal's messages by field (DRF's field errors); the rest under `other`. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return {}
  const out: Record<string, string> = {}
  for (const [field, messages] of Object.entries(error.body))
    if (Array.isArray(messages)) out[field] = messages.map(String).join(' ')
  return out
}

/** Today's date (YYYY-MM-DD) on the gym's wall clock. */
export const todayIn = (timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  )

/**
 * Under 18 on `today`: the screen asks for a guardian (the API decides, on the organization's
 * day). A 29 February birthday comes of age on 28 February, as the API counts it.
 */
export function isMinor(birthday: string, today: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthday)
  if (!m) return false
  const year = Number(m[1]) + 18
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const day = m[2] === '02' && m[3] === '29' && !leap ? '28' : m[3]
  return `${year}-${m[2]}-${day}` > today
}

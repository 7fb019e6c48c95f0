import { useEffect, useState } from 'preact/hooks'
import { api, ApiError } from '../../api.ts'
import { storedGymId } from '../../session.ts'
import { playOutcome, type Outcome } from '../../sounds.ts'
import type { KioskAnswer } from './kiosk-types.ts'

/** Long enough to read from a step away, short enough for the next in the queue. */
export const ANSWER_SHOWN_MS = 5000

const SOUNDS: Record<KioskAnswer['light'], Outcome> = {
  green: 'checked_in',
  amber: 'duplicate_check_in',
  red: 'no_entry_method',
}

const noAnswer = (): KioskAnswer => ({
  outcome: 'see_desk',
  light: 'red',
  first_name: null,
  message: 'Please see the front desk',
  details: ['The check-in could not be made just now.'],
})

/**
 * The kiosk's check-in: sends a card or a phone number and PIN, shows the answer (with its sound)
 * and clears it after a few seconds.
 */
export function useKioskCheckIn() {
  const [answer, setAnswer] = useState<KioskAnswer | null>(null)
  const [shown, setShown] = useState(0)

  useEffect(() => {
    if (answer === null) return
    const clear = setTimeout(() => setAnswer(null), ANSWER_SHOWN_MS)
    return () => clearTimeout(clear)
  }, [answer, shown])

  const checkIn = async (body: { barcode: string } | { telephone: string; pin: string }) => {
    const gymId = storedGymId()
    let got: KioskAnswer
    try {
      got = await api<KioskAnswer>('POST', '/api/kiosk/check-in/', {
        ...body,
        ...(gymId === null ? {} : { location_id: gymId }),
      })
    } catch (e) {
      const refused = e instanceof ApiError ? (e.body as Partial<KioskAnswer> | null) : null
      got = refused && typeof refused.light === 'string' ? (refused as KioskAnswer) : noAnswer()
    }
    playOutcome(SOUNDS[got.light])
    setAnswer(got)
    setShown((n) => n + 1)
    return got
  }

  return { answer, checkIn, dismiss: () => setAnswer(null) }
}

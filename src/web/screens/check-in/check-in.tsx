import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import type { ScreenProps } from '../screen-props.ts'
import { playOutcome, prepareSound } from '../../sounds.ts'
import type { CheckedIn, Refused } from '../../types.ts'
import { CheckInCard, type ScanResult } from './check-in-card.tsx'
import { CustomerSearch } from './customer-search.tsx'

/** Long enough to read with a queue waiting, short enough that the next scan starts clean. */
const CARD_SHOWN_MS = 6000

/**
 * Each scan's time to its card, in the browser's performance timeline (DevTools shows it; the
 * browser tests report it): from the scan taken to the frame that draws the card.
 */
const SCAN_TAKEN = 'scan-taken'
const SCAN_TO_CARD = 'scan-to-card'

const isRefusal = (body: unknown): body is Refused =>
  typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'

/** An element that takes typing: focus is never taken away from one. */
const takesTyping = (element: Element | null) =>
  element instanceof HTMLTextAreaElement ||
  element instanceof HTMLSelectElement ||
  (element instanceof HTMLInputElement && !['button', 'submit', 'checkbox', 'radio'].includes(element.type))

/**
 * The scan box and the card of the last scan. A USB scanner types the barcode and Enter into
 * whatever has the focus, so the box takes it back whenever nothing that takes typing has it.
 */
export function CheckInScreen({ gym }: ScreenProps) {
  const [result, setResult] = useState<ScanResult | null>(null)
  const [barcode, setBarcode] = useState('')
  const scanBox = useRef<HTMLInputElement>(null)

  useEffect(() => {
    const box = scanBox.current!
    const takeFocus = () => {
      if (!takesTyping(document.activeElement)) box.focus()
    }
    // A mouse click anywhere gives the focus back once the click has done its work; a button
    // pressed from the keyboard (a click of detail 0) keeps it, so Tab still walks the page.
    const onClick = (event: MouseEvent) => {
      if (event.detail > 0) setTimeout(takeFocus)
    }
    // Focus leaving for nowhere (a click on the page's background) comes straight back.
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget === null) setTimeout(takeFocus)
    }
    document.addEventListener('click', onClick)
    box.addEventListener('focusout', onFocusOut)
    box.focus()
    // Once the screen is drawn, not when the first card is.
    const soundReady = setTimeout(prepareSound)
    return () => {
      clearTimeout(soundReady)
      document.removeEventListener('click', onClick)
      box.removeEventListener('focusout', onFocusOut)
    }
  }, [])

  useEffect(() => {
    if (result === null) return
    requestAnimationFrame(() => performance.measure(SCAN_TO_CARD, SCAN_TAKEN))
    const timer = setTimeout(() => setResult(null), CARD_SHOWN_MS)
    return () => clearTimeout(timer)
  }, [result])

  const checkIn = async (code: string) => {
    performance.mark(SCAN_TAKEN)
    const answer = api<CheckedIn>(
      'POST',
      `/api/gym-endpoints/barcode-check-in/${encodeURIComponent(code)}/`,
      {
        location_id: gym.id,
      },
    )
    let shown: ScanResult
    try {
      shown = { kind: 'checked_in', checkIn: await answer }
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return
      shown =
        e instanceof ApiError && isRefusal(e.body)
          ? { kind: 'refused', barcode: code, refusal: e.body }
          : { kind: 'failed', message: messageOf(e) }
    }
    setResult(shown)
    // The card first: the tone starts once the frame that draws it is under way, so the sound
    // system's work (the first tone wakes it) never holds the card back.
    const outcome = shown.kind === 'refused' ? shown.refusal.error : shown.kind
    requestAnimationFrame(() => setTimeout(() => playOutcome(outcome)))
    scanBox.current?.focus()
  }

  return (
    <main class="check-in">
      <form
        class="scan"
        onSubmit={(event) => {
          event.preventDefault()
          const code = barcode.trim()
          setBarcode('')
          if (code !== '') void checkIn(code)
        }}
      >
        <label>
          Scan a card or type a barcode, then Enter
          <input
            ref={scanBox}
            class="scan-box"
            name="barcode"
            autocomplete="off"
            spellcheck={false}
            value={barcode}
            onInput={(e) => setBarcode(e.currentTarget.value)}
          />
        </label>
      </form>
      <div class="card-slot" aria-live="assertive">
        {result && <CheckInCard result={result} gym={gym} />}
      </div>
      <CustomerSearch onCheckIn={(code) => void checkIn(code)} />
    </main>
  )
}

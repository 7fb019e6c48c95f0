import { useEffect, useRef, useState } from 'preact/hooks'
import type { ScreenProps } from '../screen-props.ts'
import { playOutcome, prepareSound, type Outcome } from '../../sounds.ts'
import { CheckInCard } from '../../components/check-in-card.tsx'
import {
  checkInByBarcode,
  checkInById,
  resultCustomer,
  resultTone,
  type ScanResult,
} from '../../desk-check-in.ts'
import { timeInZone } from '../../format.ts'
import { CustomerSearch } from './customer-search.tsx'
import { atCapacity, OccupancyNow, useOccupancy } from './occupancy-now.tsx'
import { RECENT_SHOWN, RecentScans, type RecentScan } from './recent-scans.tsx'
import './check-in.css'

/** Long enough to read with a queue waiting, short enough that the next scan starts clean. */
const CARD_SHOWN_MS = 6000

/**
 * Each scan's time to its card, in the browser's performance timeline (DevTools shows it; the
 * browser tests report it): from the scan taken to the frame that draws the card.
 */
const SCAN_TAKEN = 'scan-taken'
const SCAN_TO_CARD = 'scan-to-card'

/** An element that takes typing: focus is never taken away from one. */
const takesTyping = (element: Element | null) =>
  element instanceof HTMLTextAreaElement ||
  element instanceof HTMLSelectElement ||
  (element instanceof HTMLInputElement && !['button', 'submit', 'checkbox', 'radio'].includes(element.type))

/** The sound of a result: green, green at capacity, amber, or the refusal's own. */
function soundOf(result: ScanResult, full: boolean): Outcome {
  switch (result.kind) {
    case 'checked_in':
      return full ? 'full' : result.checkIn.notices.length > 0 ? 'notice' : 'checked_in'
    case 'duplicate':
      return 'duplicate_check_in'
    case 'refused':
      return result.refusal.error
    case 'not_found':
      return 'customer_not_found'
    case 'failed':
      return 'failed'
  }
}

/**
 * The scan box and the card of the last check-in, the strip of recent ones and who is inside. A
 * USB scanner types the barcode and Enter into whatever has the focus, so the box takes it back
 * whenever nothing that takes typing has it. A green or amber card clears itself; a red one stays
 * until the next scan or Dismiss (or Esc).
 */
export function CheckInScreen({ gym, open }: ScreenProps) {
  const [result, setResult] = useState<ScanResult | null>(null)
  const [barcode, setBarcode] = useState('')
  const [recent, setRecent] = useState<RecentScan[]>([])
  /** A card someone is working with (its family list) stays until the next scan. */
  const [held, setHeld] = useState(false)
  const scanBox = useRef<HTMLInputElement>(null)
  const scanKey = useRef(0)
  const occupancy = useOccupancy(gym)

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
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setResult(null)
    }
    document.addEventListener('click', onClick)
    document.addEventListener('keydown', onKey)
    box.addEventListener('focusout', onFocusOut)
    box.focus()
    // Once the screen is drawn, not when the first card is.
    const soundReady = setTimeout(prepareSound)
    return () => {
      clearTimeout(soundReady)
      document.removeEventListener('click', onClick)
      document.removeEventListener('keydown', onKey)
      box.removeEventListener('focusout', onFocusOut)
    }
  }, [])

  useEffect(() => {
    if (result === null) return
    requestAnimationFrame(() => performance.measure(SCAN_TO_CARD, SCAN_TAKEN))
    if (resultTone(result) === 'refused' || held) return
    const timer = setTimeout(() => setResult(null), CARD_SHOWN_MS)
    return () => clearTimeout(timer)
  }, [result, held])

  /** Into the strip, newest first, the oldest beyond ten let go. */
  const remember = (shown: ScanResult) => {
    const customer = resultCustomer(shown)
    const name = customer?.name ?? (shown.kind === 'not_found' ? `Barcode ${shown.barcode}` : 'No answer')
    const scan: RecentScan = {
      key: ++scanKey.current,
      customerId: customer?.id ?? null,
      name,
      // The gym's wall clock, as the cards' times read.
      time: timeInZone(new Date().toISOString(), gym.time_zone),
      tone: resultTone(shown),
    }
    setRecent((r) => [scan, ...r].slice(0, RECENT_SHOWN))
  }

  const show = async (answer: Promise<ScanResult | null>) => {
    performance.mark(SCAN_TAKEN)
    const shown = await answer
    if (shown === null) return
    const full = shown.kind === 'checked_in' && atCapacity((occupancy.inside ?? 0) + 1, gym.capacity)
    setHeld(false)
    setResult(shown)
    // The card first: the tone starts once the frame that draws it is under way, so the sound
    // system's work (the first tone wakes it) never holds the card back; the strip and the
    // occupancy follow.
    requestAnimationFrame(() =>
      setTimeout(() => {
        playOutcome(soundOf(shown, full))
        remember(shown)
        if (shown.kind === 'checked_in') occupancy.bump()
      }),
    )
    scanBox.current?.focus()
  }

  return (
    <main class="check-in">
      <div class="check-in-top">
        <form
          class="scan"
          onSubmit={(event) => {
            event.preventDefault()
            const code = barcode.trim()
            setBarcode('')
            if (code !== '') void show(checkInByBarcode(code, gym.id))
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
        <OccupancyNow gym={gym} inside={occupancy.inside} />
      </div>
      <div class="card-slot" aria-live="assertive" onClick={() => setHeld(true)}>
        {result && (
          <CheckInCard
            result={result}
            gym={gym}
            open={open}
            onDismiss={() => setResult(null)}
            onFamilyResult={(r) => {
              remember(r)
              if (r.kind === 'checked_in') occupancy.bump()
            }}
          />
        )}
      </div>
      <RecentScans scans={recent} open={open} />
      <CustomerSearch
        timeZone={gym.time_zone}
        onCheckIn={(customerId) => void show(checkInById(customerId, gym.id))}
      />
    </main>
  )
}

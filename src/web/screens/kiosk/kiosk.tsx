import { useEffect, useRef, useState } from 'preact/hooks'
import { prepareSound } from '../../sounds.ts'
import { Keypad } from './keypad.tsx'
import { StaffLogin } from './staff-login.tsx'
import { useKioskCheckIn } from './use-kiosk-check-in.ts'
import './kiosk.css'

type Mode = 'card' | 'keypad' | 'staff'

/**
 * The self check-in kiosk: the whole page, nothing of the desk. A scanner types into the scan box,
 * which keeps the focus; a customer without their card uses the keypad (phone number, then PIN).
 * The answer fills the screen in green, amber or red and clears after a few seconds. Only a staff
 * login (the corner's Staff button) leaves it: the box locks the session to the kiosk. The staff
 * login goes back to the card by itself after a minute untouched.
 */
export function Kiosk() {
  const [mode, setMode] = useState<Mode>('card')
  const [barcode, setBarcode] = useState('')
  const { answer, checkIn, dismiss } = useKioskCheckIn()
  const scanBox = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (mode !== 'card') return
    const box = scanBox.current!
    const takeFocus = () => {
      if (document.activeElement !== box) box.focus()
    }
    box.focus()
    const onFocusOut = () => setTimeout(takeFocus)
    box.addEventListener('focusout', onFocusOut)
    const soundReady = setTimeout(prepareSound)
    return () => {
      clearTimeout(soundReady)
      box.removeEventListener('focusout', onFocusOut)
    }
  }, [mode])

  const scan = async (event: Event) => {
    event.preventDefault()
    const typed = barcode.trim()
    setBarcode('')
    if (typed !== '') await checkIn({ barcode: typed })
  }

  return (
    <main class="kiosk" data-light={answer?.light ?? 'none'}>
      {answer ? (
        <section class={`kiosk-answer kiosk-${answer.light}`} role="status" onClick={dismiss}>
          <p class="kiosk-message">{answer.message}</p>
          {answer.details.map((d) => (
            <p class="kiosk-detail" key={d}>
              {d}
            </p>
          ))}
        </section>
      ) : mode === 'keypad' ? (
        <Keypad
          onCancel={() => setMode('card')}
          onDone={async (telephone, pin) => {
            setMode('card')
            await checkIn({ telephone, pin })
          }}
        />
      ) : mode === 'staff' ? (
        <StaffLogin onCancel={() => setMode('card')} />
      ) : null}
      {mode === 'card' && (
        // Beneath the answer, still focused: the next customer's scan replaces it at once.
        <form class="kiosk-card" onSubmit={scan}>
          <h1>Scan your card</h1>
          <input
            ref={scanBox}
            class="kiosk-scan"
            aria-label="Card"
            autocomplete="off"
            value={barcode}
            onInput={(e) => setBarcode(e.currentTarget.value)}
          />
          <button type="button" class="kiosk-wide" onClick={() => setMode('keypad')}>
            No card? Use your phone number
          </button>
        </form>
      )}
      {mode !== 'staff' && (
        <button type="button" class="kiosk-staff-button quiet" onClick={() => setMode('staff')}>
          Staff
        </button>
      )}
    </main>
  )
}

import { useState } from 'preact/hooks'

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'clear', '0', 'back'] as const

/**
 * A big on-screen number pad for a touch screen: first the phone number, then the PIN (shown as
 * dots). `onDone` gets both; Cancel goes back to the card.
 */
export function Keypad({
  onDone,
  onCancel,
}: {
  onDone: (telephone: string, pin: string) => void
  onCancel: () => void
}) {
  const [telephone, setTelephone] = useState<string | null>(null)
  const [typed, setTyped] = useState('')
  const askingPin = telephone !== null
  const max = askingPin ? 6 : 15
  const ready = askingPin ? typed.length >= 4 : typed.length >= 7

  const press = (key: (typeof KEYS)[number]) => {
    if (key === 'clear') setTyped('')
    else if (key === 'back') setTyped((t) => t.slice(0, -1))
    else setTyped((t) => (t.length < max ? t + key : t))
  }
  const next = () => {
    if (!ready) return
    if (!askingPin) {
      setTelephone(typed)
      setTyped('')
    } else onDone(telephone, typed)
  }

  return (
    <div class="kiosk-keypad" role="group" aria-label={askingPin ? 'Your PIN' : 'Your phone number'}>
      <p class="kiosk-prompt">{askingPin ? 'Now your PIN' : 'Your phone number'}</p>
      <output class="kiosk-typed" aria-live="polite">
        {askingPin ? '•'.repeat(typed.length) : typed}
        {typed === '' && <span class="kiosk-placeholder">{askingPin ? '4 to 6 digits' : 'digits only'}</span>}
      </output>
      <div class="kiosk-keys">
        {KEYS.map((key) => (
          <button
            key={key}
            type="button"
            class={key.length > 1 ? 'kiosk-key kiosk-key-edit' : 'kiosk-key'}
            onClick={() => press(key)}
            aria-label={key === 'back' ? 'Delete last digit' : key === 'clear' ? 'Clear' : key}
          >
            {key === 'back' ? '⌫' : key === 'clear' ? 'Clear' : key}
          </button>
        ))}
      </div>
      <div class="kiosk-keypad-actions">
        <button type="button" class="kiosk-wide quiet" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class="kiosk-wide" disabled={!ready} onClick={next}>
          {askingPin ? 'Check in' : 'Next'}
        </button>
      </div>
    </div>
  )
}

import { useEffect, useRef, useState } from 'preact/hooks'
import { setPinAsker, type ActingStaff } from '../api.ts'
import { ErrorLine } from './error-line.tsx'
import './pin-prompt.css'

interface Asking {
  problem: string | null
  answer: (acting: ActingStaff | null) => void
}

/**
 * PIN mode's prompt: while the desk's session is in PIN mode, every change the page sends first
 * asks here who is acting (their email and PIN), and is made as them. Enter confirms, Esc cancels
 * (nothing is sent). A wrong PIN brings it back with the box's words; the email stays filled.
 */
export function PinPrompt({ active }: { active: boolean }) {
  const [asking, setAsking] = useState<Asking | null>(null)
  const [email, setEmail] = useState('')
  const [pin, setPin] = useState('')
  const emailBox = useRef<HTMLInputElement>(null)
  const pinBox = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (!active) return
    setPinAsker(
      (problem) =>
        new Promise<ActingStaff | null>((answer) => {
          setPin('')
          setAsking({ problem, answer })
        }),
    )
    return () => setPinAsker(null)
  }, [active])

  useEffect(() => {
    if (asking === null) return
    ;(email === '' ? emailBox : pinBox).current?.focus()
  }, [asking])

  if (asking === null) return null
  const close = (acting: ActingStaff | null) => {
    setAsking(null)
    if (acting === null) setEmail('')
    asking.answer(acting)
  }
  return (
    <div class="pin-backdrop" role="dialog" aria-modal="true" aria-labelledby="pin-title">
      <form
        class="pin-prompt"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault()
            close(null)
          }
        }}
        onSubmit={(e) => {
          e.preventDefault()
          close({ email: email.trim(), pin })
        }}
      >
        <h2 id="pin-title">Who is making this change?</h2>
        <ErrorLine message={asking.problem} />
        <label>
          Staff email
          <input
            type="email"
            name="staff-email"
            autocomplete="off"
            required
            ref={emailBox}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label>
          PIN
          <input
            type="password"
            name="staff-pin"
            inputMode="numeric"
            autocomplete="off"
            required
            ref={pinBox}
            value={pin}
            onInput={(e) => setPin(e.currentTarget.value)}
          />
        </label>
        <div class="actions">
          <button type="submit">Confirm</button>
          <button type="button" class="quiet" onClick={() => close(null)}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  )
}

import { useEffect, useRef, useState } from 'preact/hooks'
import { setPinAsker, type ActingStaff } from '../api.ts'
import type { PinHolder } from '../types.ts'
import { ErrorLine } from './error-line.tsx'
import { usePinHolders } from './pin-holders.ts'
import { StaffPicker } from './staff-picker.tsx'
import './pin-prompt.css'

interface Asking {
  problem: string | null
  answer: (acting: ActingStaff | null) => void
}

/** A PIN is digits only: a letter typed in its box is someone looking for their name. */
const LETTER = /^\p{L}$/u

/**
 * PIN mode's prompt: while the desk's session is in PIN mode, every change the page sends first
 * asks here who is acting, and is made as them. The acting member picks their name from the staff
 * who have a PIN (or types to filter them: Enter picks, arrows move), which puts the focus in the
 * PIN box; Enter confirms, Esc cancels (nothing is sent). Only when the list cannot be read does it
 * ask for an email instead. Whoever acted last stays picked for the next change, the focus in the
 * PIN box, so one person's run of changes costs a PIN each; a letter typed there goes to the
 * filter, for the next person. A wrong PIN brings it back with the box's words, the pick kept.
 * Cancelling forgets the pick.
 */
export function PinPrompt({ active }: { active: boolean }) {
  const [asking, setAsking] = useState<Asking | null>(null)
  const { holders, reload } = usePinHolders(active)
  const [email, setEmail] = useState('')
  const [filter, setFilter] = useState('')
  const [pin, setPin] = useState('')
  const [hint, setHint] = useState<string | null>(null)
  const emailBox = useRef<HTMLInputElement>(null)
  const filterBox = useRef<HTMLInputElement>(null)
  const pinBox = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (!active) return
    setPinAsker(
      (problem) =>
        new Promise<ActingStaff | null>((answer) => {
          if (problem === null) {
            setFilter('')
            reload()
          }
          setPin('')
          setHint(null)
          setAsking({ problem, answer })
        }),
    )
    return () => setPinAsker(null)
  }, [active])

  const listed = holders.state === 'loaded' ? holders.holders : null
  const chosen = listed === null ? null : (listed.find((h) => h.email === email) ?? null)
  // The list came: whoever was picked and no longer has a PIN is picked no more.
  useEffect(() => {
    if (listed !== null && email !== '' && chosen === null) setEmail('')
  }, [listed])

  useEffect(() => {
    if (asking === null || holders.state === 'loading') return
    const box = listed === null ? (email === '' ? emailBox : pinBox) : chosen === null ? filterBox : pinBox
    box.current?.focus()
  }, [asking, holders.state])

  if (asking === null) return null
  const close = (acting: ActingStaff | null) => {
    setAsking(null)
    if (acting === null) setEmail('')
    asking.answer(acting)
  }
  const choose = (holder: PinHolder) => {
    setEmail(holder.email)
    setHint(null)
    pinBox.current?.focus()
  }
  const noOneHasAPin = listed !== null && listed.length === 0
  return (
    <div class="pin-backdrop" role="dialog" aria-modal="true" aria-labelledby="pin-title">
      <form
        class={listed === null ? 'pin-prompt' : 'pin-prompt with-staff'}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault()
            close(null)
          }
        }}
        onSubmit={(e) => {
          e.preventDefault()
          if (holders.state === 'loading') return
          if (listed !== null && chosen === null) {
            setHint('Pick your name first.')
            filterBox.current?.focus()
            return
          }
          close({ email: email.trim(), pin })
        }}
      >
        <h2 id="pin-title">Who is making this change?</h2>
        <ErrorLine message={hint ?? asking.problem} />
        {holders.state === 'loading' && <p class="muted">Loading the staff…</p>}
        {holders.state === 'failed' && (
          <>
            <p class="muted">The staff list could not be loaded: type your email.</p>
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
          </>
        )}
        {noOneHasAPin && (
          <p class="muted">No staff member has a PIN yet: an organization admin sets one for each.</p>
        )}
        {listed !== null && !noOneHasAPin && (
          <StaffPicker
            holders={listed}
            chosen={chosen?.email ?? null}
            filter={filter}
            onFilter={setFilter}
            onChoose={choose}
            filterBox={filterBox}
          />
        )}
        {!noOneHasAPin && (
          <label>
            {chosen ? `PIN for ${chosen.name}` : 'PIN'}
            <input
              type="password"
              name="staff-pin"
              inputMode="numeric"
              autocomplete="off"
              required
              ref={pinBox}
              value={pin}
              onInput={(e) => setPin(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (listed === null || !LETTER.test(e.key) || e.ctrlKey || e.metaKey || e.altKey) return
                e.preventDefault()
                setFilter(e.key)
                filterBox.current?.focus()
              }}
            />
          </label>
        )}
        <div class="actions">
          {!noOneHasAPin && <button type="submit">Confirm</button>}
          <button type="button" class="quiet" onClick={() => close(null)}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  )
}

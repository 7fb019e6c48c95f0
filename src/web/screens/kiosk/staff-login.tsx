import { useEffect, useRef, useState } from 'preact/hooks'
import { api, messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { LoginFields } from '../../components/login-fields.tsx'

/**
 * How long the form waits untouched before it gives the screen back to the card: a customer who
 * touched "Staff" by mistake walks away, and the next one must find the scan box, not a password.
 */
const STAFF_LOGIN_IDLE_MS = 60_000

/** What counts as someone still at the form: any key, tap, click or typed text restarts the wait. */
const ACTIVITY = ['keydown', 'pointerdown', 'input'] as const

/**
 * Leaving the kiosk: a staff member's email and password. The login replaces the kiosk's session
 * (the box ends it), so the page reloads as the desk. Left untouched, the form cancels itself.
 */
export function StaffLogin({ onCancel }: { onCancel: () => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useIdle(STAFF_LOGIN_IDLE_MS, onCancel)

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await api('POST', '/api/login/', { username: email, password })
      location.reload()
    } catch (e) {
      setError(messageOf(e))
      setBusy(false)
    }
  }

  return (
    <form class="login kiosk-staff" onSubmit={submit} aria-label="Staff login">
      <h2>Staff: leave the kiosk</h2>
      <LoginFields email={email} password={password} onEmail={setEmail} onPassword={setPassword} />
      <ErrorLine message={error} />
      <div class="kiosk-keypad-actions">
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          Log in
        </button>
      </div>
    </form>
  )
}

/** Calls `onIdle` once nobody has pressed a key, tapped or typed anywhere on the page for `ms`. */
function useIdle(ms: number, onIdle: () => void) {
  const latest = useRef(onIdle)
  latest.current = onIdle
  useEffect(() => {
    let timer = setTimeout(() => latest.current(), ms)
    const restart = () => {
      clearTimeout(timer)
      timer = setTimeout(() => latest.current(), ms)
    }
    // Captured, so that no control that stops an event's bubbling hides it.
    for (const type of ACTIVITY) document.addEventListener(type, restart, true)
    return () => {
      clearTimeout(timer)
      for (const type of ACTIVITY) document.removeEventListener(type, restart, true)
    }
  }, [ms])
}

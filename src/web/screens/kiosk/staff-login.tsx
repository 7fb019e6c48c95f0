import { useState } from 'preact/hooks'
import { api, messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { LoginFields } from '../../components/login-fields.tsx'

/**
 * Leaving the kiosk: a staff member's email and password. The login replaces the kiosk's session
 * (the box ends it), so the page reloads as the desk.
 */
export function StaffLogin({ onCancel }: { onCancel: () => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

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

import { useState } from 'preact/hooks'
import { api, messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import type { ScreenProps } from '../screen-props.ts'

/**
 * The menu's Kiosk screen: turns this browser into the self check-in kiosk, once confirmed. The box
 * locks the session to the kiosk, so the page reloads into it and stays there until a staff login.
 */
export function KioskStartScreen({ gym }: ScreenProps) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const start = async () => {
    setBusy(true)
    setError(null)
    try {
      await api('POST', '/api/kiosk/start/', {})
      location.reload()
    } catch (e) {
      setError(messageOf(e))
      setBusy(false)
    }
  }
  return (
    <main class="centered kiosk-start">
      <h1>Self check-in kiosk</h1>
      <p>
        This screen becomes a kiosk for customers at {gym.name}: they scan their card, or type their phone
        number and the PIN set on their customer page. Nothing else of the desk can be used here until a staff
        member logs in with their email and password (the Staff button in the corner).
      </p>
      <ErrorLine message={error} />
      <button type="button" disabled={busy} onClick={start}>
        Start the kiosk on this screen
      </button>
    </main>
  )
}

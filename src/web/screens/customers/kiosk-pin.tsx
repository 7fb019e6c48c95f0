import { useEffect, useState } from 'preact/hooks'
import { api, messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'

/**
 * The customer's PIN for the self check-in kiosk (with their phone number, when they have no
 * card). The box never shows a PIN: only whether there is one.
 */
export function KioskPin({ customerId }: { customerId: number }) {
  const path = `/api/customers/${customerId}/kiosk-pin/`
  const [hasPin, setHasPin] = useState<boolean | null>(null)
  const [pin, setPin] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)

  useEffect(() => {
    api<{ has_kiosk_pin: boolean }>('GET', path)
      .then((r) => setHasPin(r.has_kiosk_pin))
      .catch((e: unknown) => setError(messageOf(e)))
  }, [path])

  const save = async (event: Event) => {
    event.preventDefault()
    setError(null)
    setDone(null)
    try {
      await api('PUT', path, { pin })
      setHasPin(true)
      setPin('')
      setDone('Kiosk PIN set.')
    } catch (e) {
      setError(messageOf(e))
    }
  }
  const remove = async () => {
    setError(null)
    setDone(null)
    try {
      await api('DELETE', path)
      setHasPin(false)
      setDone('Kiosk PIN removed.')
    } catch (e) {
      setError(messageOf(e))
    }
  }

  return (
    <>
      <form class="action" onSubmit={save}>
        <label>
          Kiosk PIN (4 to 6 digits){hasPin === true && ': one is set'}
          <input
            name="kiosk_pin"
            inputMode="numeric"
            autocomplete="off"
            maxLength={6}
            value={pin}
            onInput={(e) => setPin(e.currentTarget.value)}
          />
        </label>
        <button type="submit">{hasPin ? 'Change PIN' : 'Set PIN'}</button>
        {hasPin && (
          <button type="button" class="quiet" onClick={remove}>
            Remove PIN
          </button>
        )}
      </form>
      {done && <p role="status">{done}</p>}
      <ErrorLine message={error} />
    </>
  )
}

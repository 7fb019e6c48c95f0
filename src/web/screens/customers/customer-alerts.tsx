import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import type { CustomerAlert, LostCard } from '../../types.ts'
import { OutcomeLine, type Act, type Outcome } from './customer-action.tsx'
import { LostCards } from './lost-cards.tsx'

/** The colours an alert can be given at the desk, each distinct at a glance beside dark text. */
const ALERT_COLOURS = [
  { name: 'Red', hex: 'FF0000' },
  { name: 'Amber', hex: 'FFB000' },
  { name: 'Blue', hex: '1F6FEB' },
  { name: 'Green', hex: '1A7F37' },
  { name: 'Grey', hex: '59636E' },
]

/** The customer's alerts (a card lost to another site's customer first), retiring one, adding one. */
export function CustomerAlerts({
  path,
  alerts,
  lostCards,
  outcome,
  act,
}: {
  /** The customer's API path, `/api/customers/<id>`. */
  path: string
  alerts: CustomerAlert[]
  lostCards: LostCard[]
  outcome: Outcome | null
  act: Act
}) {
  const [alertText, setAlertText] = useState('')
  const [alertColour, setAlertColour] = useState(ALERT_COLOURS[0]!.hex)
  const [alertStops, setAlertStops] = useState(false)
  const addAlert = async (event: Event) => {
    event.preventDefault()
    const ok = await act(
      'alerts',
      () =>
        api('POST', `${path}/alerts/`, {
          alert_text: alertText,
          color_hex: alertColour,
          prevents_check_in: alertStops,
        }),
      'Alert added.',
    )
    if (ok) {
      setAlertText('')
      setAlertStops(false)
    }
  }
  const retire = (alert: CustomerAlert) =>
    act(
      'alerts',
      () => api('PATCH', `${path}/alerts/${alert.id}/`, { is_active: false }),
      `Alert retired: ${alert.alert_text}`,
    )

  return (
    <section aria-labelledby="alerts-heading">
      <h3 id="alerts-heading">Alerts</h3>
      {alerts.length === 0 && lostCards.length === 0 ? (
        <p class="muted">No alerts.</p>
      ) : (
        <ul class="alerts">
          <LostCards lost={lostCards} />
          {alerts.map((a) => (
            <li key={a.id} style={{ borderLeftColor: `#${a.color_hex}` }}>
              <span>
                {a.alert_text}
                {a.prevents_check_in && <strong> (stops check-in)</strong>}
              </span>
              <button
                class="small quiet"
                onClick={() => void retire(a)}
                aria-label={`Retire alert: ${a.alert_text}`}
              >
                Retire
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="action" onSubmit={addAlert}>
        <label>
          New alert
          <input name="alert_text" value={alertText} onInput={(e) => setAlertText(e.currentTarget.value)} />
        </label>
        <label>
          Colour
          <select
            name="color_hex"
            value={alertColour}
            onChange={(e) => setAlertColour(e.currentTarget.value)}
          >
            {ALERT_COLOURS.map((c) => (
              <option key={c.hex} value={c.hex}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label class="inline">
          <input
            type="checkbox"
            name="prevents_check_in"
            checked={alertStops}
            onChange={(e) => setAlertStops(e.currentTarget.checked)}
          />
          Stops check-in
        </label>
        <button type="submit">Add alert</button>
      </form>
      <OutcomeLine outcome={outcome} action="alerts" />
    </section>
  )
}

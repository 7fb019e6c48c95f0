import { useEffect, useState } from 'preact/hooks'
import { messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import type { ScreenProps } from '../screen-props.ts'
import {
  loadCurrentText,
  loadCustomerAnswers,
  NO_ANSWERS,
  todayIn,
  type Answers,
  type WaiverSigned,
  type WaiverText,
} from './waiver-api.ts'
import { WaiverForm } from './waiver-form.tsx'
import { WaiverTextEditor } from './waiver-text-editor.tsx'
import './waiver.css'

/** How long the thank-you stays before the form is blank for the next person. */
const THANK_YOU_MS = 20_000

/**
 * The waiver the desk hands to the customer on a tablet (or leaves on the counter): the current
 * text to read, their answers and signature; then a thank-you, and a blank form for the next
 * person. Opened for a customer (a card's "Sign waiver"), the form starts with their details.
 */
export function WaiverScreen({ account, gym, place, open }: ScreenProps) {
  const [text, setText] = useState<WaiverText | null | undefined>(undefined)
  const [start, setStart] = useState<Answers | null>(place.customerId === undefined ? NO_ANSWERS : null)
  const [error, setError] = useState<string | null>(null)
  const [changed, setChanged] = useState(false)
  const [signed, setSigned] = useState<WaiverSigned | null>(null)
  const [last, setLast] = useState<WaiverSigned | null>(null)
  const [editing, setEditing] = useState(false)
  // Each person gets a fresh form: its number is the form's key.
  const [person, setPerson] = useState(0)

  const reload = () => loadCurrentText().then(setText, (e: unknown) => setError(messageOf(e)))

  useEffect(() => {
    reload()
    if (place.customerId !== undefined)
      loadCustomerAnswers(place.customerId).then(setStart, (e: unknown) => {
        setError(messageOf(e))
        setStart(NO_ANSWERS)
      })
  }, [])

  const next = () => {
    setLast(signed)
    setSigned(null)
    setChanged(false)
    setStart(NO_ANSWERS)
    setPerson((p) => p + 1)
  }

  useEffect(() => {
    if (signed === null) return
    const timer = setTimeout(next, THANK_YOU_MS)
    return () => clearTimeout(timer)
  }, [signed])

  const openCustomer = (s: WaiverSigned) => open({ screen: 'customers', customerId: s.customer_id })
  const name = (s: WaiverSigned) => `${s.customer_first_name} ${s.customer_last_name}`

  if (signed !== null)
    return (
      <main class="waiver-screen thanks" aria-live="polite">
        <h2>Thank you!</h2>
        <p class="big">
          {signed.is_minor
            ? `The waiver for ${name(signed)} is signed.`
            : `Your waiver is signed, ${signed.customer_first_name}.`}
        </p>
        <p class="muted">
          {signed.customer_created ? 'New customer' : 'Existing customer'}: {name(signed)}.{' '}
          {signed.document.expiration_date === null
            ? 'The waiver does not expire.'
            : `Valid through ${signed.document.expiration_date}.`}
        </p>
        <div class="actions">
          <button type="button" onClick={next}>
            Next person
          </button>
          <button type="button" class="quiet" onClick={() => openCustomer(signed)}>
            Open customer
          </button>
        </div>
      </main>
    )

  if (editing)
    return (
      <main class="waiver-screen single">
        <WaiverTextEditor
          current={text ?? null}
          onSaved={() => {
            setEditing(false)
            reload()
          }}
          onCancel={() => setEditing(false)}
        />
      </main>
    )

  const adminLink = account.is_organization_admin && (
    <button type="button" class="quiet" onClick={() => setEditing(true)}>
      {text ? 'Change the waiver text' : 'Write the waiver text'}
    </button>
  )

  if (text === null)
    return (
      <main class="waiver-screen single">
        <p>There is no waiver text yet: an organization admin writes it here.</p>
        {adminLink}
      </main>
    )

  return (
    <main class="waiver-screen">
      <section class="waiver-reading" aria-labelledby="waiver-heading">
        <div class="waiver-head">
          <h2 id="waiver-heading">Waiver</h2>
          {text && <span class="muted">Version {text.version}</span>}
          <span class="spacer" />
          {adminLink}
        </div>
        {changed && (
          <p class="error" role="alert">
            The waiver text has just changed: please read it again, then sign.
          </p>
        )}
        {last && (
          <p class="last-signed">
            Last signed: {name(last)} ({last.customer_created ? 'new customer' : 'existing customer'}){' '}
            <button type="button" class="quiet small" onClick={() => openCustomer(last)}>
              Open customer
            </button>
          </p>
        )}
        <div class="waiver-text" tabIndex={0} aria-label="The waiver text">
          {text === undefined
            ? 'Loading…'
            : text.text.split(/\n\s*\n/).map((paragraph) => <p>{paragraph}</p>)}
        </div>
      </section>
      <section class="waiver-signing" aria-label="Sign the waiver">
        <ErrorLine message={error} />
        {text && start && (
          <WaiverForm
            key={person}
            text={text}
            start={start}
            today={todayIn(gym.time_zone)}
            onSigned={setSigned}
            onStale={() => {
              setChanged(true)
              reload()
            }}
          />
        )}
      </section>
    </main>
  )
}

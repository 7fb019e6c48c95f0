import { useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import { useFocusOnShow } from '../../focus.ts'
import type { Customer } from '../../types.ts'
import { ErrorLine } from '../../components/error-line.tsx'

interface SignedUp {
  id: number
  /** What the customer's page says first: signed up, and whether the waiver is on file. */
  notice: string
}

const blankForm = { first_name: '', last_name: '', birthday: '', email: '', barcode: '' }

/**
 * A walk-in's sign-up: the new customer and their signed waiver in one form, then their page,
 * where the desk checks them in.
 */
export function WalkInSignUp({
  onSignedUp,
  onCancel,
}: {
  onSignedUp: (s: SignedUp) => void
  onCancel: () => void
}) {
  const [form, setForm] = useState(blankForm)
  const [waiverSigned, setWaiverSigned] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const firstField = useFocusOnShow<HTMLInputElement>()

  /** An input's name, value and typing, kept in the form. */
  const bound = (name: keyof typeof blankForm) => ({
    name,
    autocomplete: 'off',
    value: form[name],
    onInput: (e: { currentTarget: HTMLInputElement }) => setForm({ ...form, [name]: e.currentTarget.value }),
  })

  const signUp = async (event: Event) => {
    event.preventDefault()
    setSending(true)
    setError(null)
    let customer: Customer
    try {
      customer = await api<Customer>('POST', '/api/customers/', {
        ...form,
        // Left out when empty, so the API answers in its own words that it is required.
        birthday: form.birthday === '' ? undefined : form.birthday,
      })
    } catch (e) {
      setSending(false)
      if (!(e instanceof ApiError && e.status === 401)) setError(messageOf(e))
      return
    }
    const name = `${customer.first_name} ${customer.last_name}`
    if (!waiverSigned) return onSignedUp({ id: customer.id, notice: `${name} signed up, without a waiver.` })
    // The customer exists either way: a waiver the API refuses is said on their page, to record again.
    try {
      await api('POST', `/api/customers/${customer.id}/documents/`, { name: 'Waiver', kind: 'waiver' })
      onSignedUp({ id: customer.id, notice: `${name} signed up, with a signed waiver.` })
    } catch (e) {
      onSignedUp({
        id: customer.id,
        notice: `${name} signed up; the waiver was not recorded: ${messageOf(e)}`,
      })
    }
  }

  return (
    <form class="walk-in" onSubmit={signUp} noValidate aria-label="Sign up a walk-in">
      <h2>Sign up a walk-in</h2>
      <label>
        First name
        <input ref={firstField} {...bound('first_name')} />
      </label>
      <label>
        Last name
        <input {...bound('last_name')} />
      </label>
      <label>
        Birthday
        <input type="date" {...bound('birthday')} />
      </label>
      <label>
        Email (optional)
        <input type="email" {...bound('email')} />
      </label>
      <label>
        Card barcode (optional)
        <input {...bound('barcode')} />
      </label>
      <label class="inline">
        <input
          type="checkbox"
          name="waiver_signed"
          checked={waiverSigned}
          onChange={(e) => setWaiverSigned(e.currentTarget.checked)}
        />
        The waiver is signed
      </label>
      <ErrorLine message={error} />
      <div class="actions">
        <button type="submit" disabled={sending}>
          Sign up
        </button>
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

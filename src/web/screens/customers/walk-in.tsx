import { useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import { useFocusOnShow } from '../../focus.ts'
import type { Customer } from '../../types.ts'
import { ErrorLine } from '../../components/error-line.tsx'

interface SignedUp {
  id: number
  /** What the customer's page says first: who signed up. */
  notice: string
}

const blankForm = { first_name: '', last_name: '', birthday: '', email: '', barcode: '' }

/**
 * A walk-in's sign-up: the new customer, then the waiver they sign themselves on the waiver screen
 * ("Sign waiver now"), or their page. Nothing records a waiver for them here: only their signature
 * does.
 */
export function WalkInSignUp({
  onSignedUp,
  onSignWaiver,
  onCancel,
}: {
  onSignedUp: (s: SignedUp) => void
  /** Opens the waiver screen for the new customer. */
  onSignWaiver?: (customerId: number) => void
  onCancel: () => void
}) {
  const [form, setForm] = useState(blankForm)
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const [created, setCreated] = useState<Customer | null>(null)
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
    try {
      setCreated(
        await api<Customer>('POST', '/api/customers/', {
          ...form,
          // Left out when empty, so the API answers in its own words that it is required.
          birthday: form.birthday === '' ? undefined : form.birthday,
        }),
      )
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) setError(messageOf(e))
    } finally {
      setSending(false)
    }
  }

  if (created !== null) {
    const name = `${created.first_name} ${created.last_name}`
    const openPage = () => onSignedUp({ id: created.id, notice: `${name} signed up, without a waiver yet.` })
    return (
      <section class="walk-in" aria-label="Signed up">
        <h2>{name} is signed up</h2>
        <p class="notice">They have no waiver yet: hand them the tablet to read and sign it.</p>
        <div class="actions">
          {onSignWaiver && (
            <button type="button" ref={(b) => b?.focus()} onClick={() => onSignWaiver(created.id)}>
              Sign waiver now
            </button>
          )}
          <button type="button" class="quiet" onClick={openPage}>
            Open their page
          </button>
        </div>
      </section>
    )
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

import { useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import type { CustomerRecord } from '../../types.ts'
import { ErrorLine } from '../../components/error-line.tsx'

/** A customer's fields the desk edits, as the API names them. */
export type CustomerDetails = Pick<
  CustomerRecord,
  'first_name' | 'last_name' | 'email' | 'telephone' | 'birthday'
>

type FieldErrors = Record<string, string>

/** The API's words for a field, said as the desk says them where they differ. */
function plainWords(field: string, message: string): string {
  if (message === 'This field may not be blank.' || message === 'This field is required.')
    return field === 'barcode' ? 'Scan or type the card.' : 'Fill this in.'
  if (field === 'barcode' && message.includes('already exists'))
    return 'Another customer already has this card: scan a new one.'
  if (message.startsWith('Date has wrong format')) return 'Give the date as year, month and day.'
  return message
}

/** A PATCH of the customer; a refusal's messages by field, or one line when not about a field. */
async function patchCustomer(
  id: number,
  changes: Partial<CustomerDetails & { barcode: string }>,
): Promise<{ fields: FieldErrors; line: string | null }> {
  try {
    await api('PATCH', `/api/customers/${id}/`, changes)
    return { fields: {}, line: null }
  } catch (e) {
    if (e instanceof ApiError && e.status === 400 && typeof e.body === 'object' && e.body !== null) {
      const fields: FieldErrors = {}
      let line: string | null = null
      for (const [field, list] of Object.entries(e.body as Record<string, unknown>)) {
        const first = Array.isArray(list) ? String(list[0]) : String(list)
        if (field in changes) fields[field] = plainWords(field, first)
        else line = first
      }
      return { fields, line }
    }
    return { fields: {}, line: e instanceof ApiError && e.status === 401 ? null : messageOf(e) }
  }
}

function Field({
  name,
  label,
  type = 'text',
  value,
  error,
  onInput,
}: {
  name: string
  label: string
  type?: 'text' | 'email' | 'tel'
  value: string
  error?: string
  onInput: (value: string) => void
}) {
  const id = `customer-${name}`
  return (
    <label class="field">
      {label}
      <input
        id={id}
        name={name}
        type={type as 'text'}
        value={value}
        aria-invalid={error !== undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {error && (
        <span class="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </label>
  )
}

/** "Give a card": a scanned barcode saved as the customer's. */
export function GiveCard({ customer, onSaved }: { customer: CustomerRecord; onSaved: () => void }) {
  const [barcode, setBarcode] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [done, setDone] = useState<string | null>(null)
  const save = async (event: Event) => {
    event.preventDefault()
    const code = barcode.trim()
    if (code === '') {
      setError('Scan or type the card.')
      return
    }
    const { fields, line } = await patchCustomer(customer.id, { barcode: code })
    setError(fields.barcode ?? line ?? undefined)
    if (fields.barcode === undefined && line === null) {
      setDone(`Card ${code} given.`)
      setBarcode('')
      onSaved()
    }
  }
  return (
    <form class="action give-card" onSubmit={save}>
      <Field
        name="barcode"
        label={customer.barcode === null ? 'Give a card: scan it here' : 'Replace the card: scan the new one'}
        value={barcode}
        error={error}
        onInput={(v) => {
          setBarcode(v)
          setDone(null)
        }}
      />
      <button type="submit">Save the card</button>
      {done && (
        <p class="done" role="status">
          {done}
        </p>
      )}
    </form>
  )
}

/** Name, email, phone and birthday, each refusal under its own field. */
export function EditDetails({
  customer,
  onSaved,
  onCancel,
}: {
  customer: CustomerRecord & CustomerDetails
  onSaved: () => void
  onCancel: () => void
}) {
  const [values, setValues] = useState<CustomerDetails>({
    first_name: customer.first_name,
    last_name: customer.last_name,
    email: customer.email,
    telephone: customer.telephone,
    birthday: customer.birthday,
  })
  const [errors, setErrors] = useState<FieldErrors>({})
  const [line, setLine] = useState<string | null>(null)
  const set = (field: keyof CustomerDetails) => (value: string) =>
    setValues((v) => ({ ...v, [field]: value }))
  const save = async (event: Event) => {
    event.preventDefault()
    const result = await patchCustomer(customer.id, { ...values, email: values.email || null })
    setErrors(result.fields)
    setLine(result.line)
    if (Object.keys(result.fields).length === 0 && result.line === null) onSaved()
  }
  return (
    <form class="edit-details" onSubmit={save} aria-label="Edit details">
      <Field
        name="first_name"
        label="First name"
        value={values.first_name}
        error={errors.first_name}
        onInput={set('first_name')}
      />
      <Field
        name="last_name"
        label="Last name"
        value={values.last_name}
        error={errors.last_name}
        onInput={set('last_name')}
      />
      <Field
        name="email"
        label="Email"
        type="email"
        value={values.email ?? ''}
        error={errors.email}
        onInput={set('email')}
      />
      <Field
        name="telephone"
        label="Phone"
        type="tel"
        value={values.telephone}
        error={errors.telephone}
        onInput={set('telephone')}
      />
      <Field
        name="birthday"
        label="Birthday (YYYY-MM-DD)"
        value={values.birthday}
        error={errors.birthday}
        onInput={set('birthday')}
      />
      <ErrorLine message={line} />
      <div class="form-buttons">
        <button type="submit">Save details</button>
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

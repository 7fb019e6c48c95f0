import { useState } from 'preact/hooks'
import { messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { SignaturePad } from './signature-pad.tsx'
import {
  fieldErrors,
  isMinor,
  signWaiver,
  type Answers,
  type WaiverSigned,
  type WaiverText,
} from './waiver-api.ts'

/** A field's label, its input and what the API said about it, tied together for screen readers. */
function Field({
  label,
  name,
  answers,
  setAnswers,
  errors,
  type = 'text',
  autocomplete,
}: {
  label: string
  name: keyof Answers
  answers: Answers
  setAnswers: (a: Answers) => void
  errors: Record<string, string>
  type?: 'text' | 'date' | 'tel' | 'email'
  autocomplete: string
}) {
  const error = errors[name]
  return (
    <label>
      {label}
      <input
        name={name}
        // Preact types each input type's attributes apart; these four take the same ones here.
        type={type as 'text'}
        autocomplete={autocomplete}
        value={answers[name]}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
        onInput={(e) => setAnswers({ ...answers, [name]: e.currentTarget.value })}
      />
      {error && (
        <span id={`${name}-error`} class="error">
          {error}
        </span>
      )}
    </label>
  )
}

/**
 * The signer's answers, the guardian for a minor, the agreement (never ticked for them) and the
 * signature; "Sign" is enabled once everything required is there. A refusal shows at its field; a
 * text changed meanwhile is read again (`onStale`) and the signature asked for again.
 */
export function WaiverForm({
  text,
  start,
  today,
  onSigned,
  onStale,
}: {
  text: WaiverText
  start: Answers
  today: string
  onSigned: (signed: WaiverSigned) => void
  onStale: () => void
}) {
  const [answers, setAnswers] = useState<Answers>(start)
  const [signature, setSignature] = useState<string | null>(null)
  const [agreed, setAgreed] = useState(false)
  const [padKey, setPadKey] = useState(0)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [other, setOther] = useState<string | null>(null)
  const [sending, setSending] = useState(false)

  const minor = isMinor(answers.birthday, today)
  const complete =
    answers.first_name.trim() !== '' &&
    answers.last_name.trim() !== '' &&
    answers.birthday !== '' &&
    answers.telephone.trim() !== '' &&
    (!minor || answers.guardian_name.trim() !== '') &&
    signature !== null &&
    agreed

  const sign = async (event: Event) => {
    event.preventDefault()
    if (!complete || sending) return
    setSending(true)
    setErrors({})
    setOther(null)
    try {
      // An adult's guardian field is sent empty, whatever was typed while the birthday said minor.
      const sent = { ...answers, guardian_name: minor ? answers.guardian_name : '' }
      onSigned(await signWaiver(text.version, sent, signature!))
    } catch (e) {
      const byField = fieldErrors(e)
      if (byField.waiver_text_version) {
        setAgreed(false)
        setPadKey((k) => k + 1)
        onStale()
      }
      const { waiver_text_version: _, ...rest } = byField
      setErrors(rest)
      if (Object.keys(byField).length === 0) setOther(messageOf(e))
    } finally {
      setSending(false)
    }
  }

  const bound = { answers, setAnswers, errors }
  return (
    <form class="waiver-form" onSubmit={sign} noValidate aria-label="Your details and signature">
      <div class="pair">
        <Field label="First name" name="first_name" autocomplete="given-name" {...bound} />
        <Field label="Last name" name="last_name" autocomplete="family-name" {...bound} />
      </div>
      <div class="pair">
        <Field label="Birthday" name="birthday" type="date" autocomplete="bday" {...bound} />
        <Field label="Phone" name="telephone" type="tel" autocomplete="tel" {...bound} />
      </div>
      <Field label="Email (optional)" name="email" type="email" autocomplete="email" {...bound} />
      {minor && (
        <fieldset class="guardian">
          <legend>Under 18: a parent or guardian signs for them</legend>
          <Field label="Parent or guardian's full name" name="guardian_name" autocomplete="name" {...bound} />
        </fieldset>
      )}
      <SignaturePad onChange={setSignature} resetKey={padKey} error={errors.signature} />
      <label class="inline agree">
        <input
          type="checkbox"
          name="agreed"
          checked={agreed}
          onChange={(e) => setAgreed(e.currentTarget.checked)}
        />
        {minor
          ? 'I am their parent or guardian; I have read the waiver and agree to it for them.'
          : 'I have read the waiver and agree to it.'}
      </label>
      <ErrorLine message={other} />
      <button type="submit" class="sign" disabled={!complete || sending}>
        {sending ? 'Signing…' : 'Sign'}
      </button>
    </form>
  )
}

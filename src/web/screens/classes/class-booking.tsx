import { useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import { CustomerFinder } from '../../components/customer-finder.tsx'
import { ErrorLine } from '../../components/error-line.tsx'
import { useCustomerSearch } from '../../customers.ts'
import { fullName } from '../../format.ts'
import type { ClassEvent, Customer, EventQuestion } from '../../types.ts'

/** The answers as typed or picked, by question id: text, a choice, or "yes" / "no". */
type Typed = Record<number, string>

/** The answers the API takes: the ones given, text trimmed, yes or no as true or false. */
function answersToSend(questions: EventQuestion[], typed: Typed) {
  return questions
    .filter((q) => (typed[q.id] ?? '').trim() !== '')
    .map((q) => ({
      question_id: q.id,
      answer: q.kind === 'BOO' ? typed[q.id] === 'yes' : typed[q.id]!.trim(),
    }))
}

/**
 * "Book a customer": find them as on the other screens, answer the type's active questions (the
 * required ones are asked for here before anything is sent), then Book, or "Add to waitlist" when
 * the event is full. The API's refusal (closed, already booked, over the day's limit) shows in its
 * words under the button.
 */
export function ClassBooking({
  event,
  questions,
  onDone,
}: {
  event: ClassEvent
  questions: EventQuestion[]
  /** After a booking or a place on the waitlist: what to say. */
  onDone: (said: string) => void
}) {
  const searching = useCustomerSearch()
  const [customer, setCustomer] = useState<Customer | null>(null)
  const [typed, setTyped] = useState<Typed>({})
  const [missing, setMissing] = useState<ReadonlySet<number>>(new Set())
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const full = event.spots_left === 0

  const choose = (chosen: Customer | null) => {
    setCustomer(chosen)
    setError(null)
    if (chosen === null) return
    searching.clear()
    // The first question, or the button, takes the focus: the keyboard goes on from the search.
    setTimeout(() =>
      form.current?.querySelector<HTMLElement>('input, select, button[type="submit"]')?.focus(),
    )
  }
  const answer = (question: EventQuestion, value: string) => {
    setTyped((now) => ({ ...now, [question.id]: value }))
    if (value.trim() !== '') setMissing((now) => new Set([...now].filter((id) => id !== question.id)))
  }

  const book = async (submitted: Event) => {
    submitted.preventDefault()
    if (customer === null || sending) return
    const unanswered = questions.filter((q) => q.is_required && (typed[q.id] ?? '').trim() === '')
    setMissing(new Set(unanswered.map((q) => q.id)))
    if (unanswered.length > 0) {
      form.current?.querySelector<HTMLElement>(`[name="question-${unanswered[0]!.id}"]`)?.focus()
      return
    }
    const name = fullName(customer.first_name, customer.last_name)
    setSending(true)
    setError(null)
    try {
      await api('POST', full ? '/api/waitlist-entries/' : '/api/reservations/', {
        event_id: event.id,
        customer_id: customer.id,
        answers: answersToSend(questions, typed),
      })
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) setError(messageOf(e))
      return
    } finally {
      setSending(false)
    }
    setCustomer(null)
    setTyped({})
    onDone(full ? `${name} is on the waitlist for ${event.name}.` : `${name} is booked on ${event.name}.`)
  }

  return (
    <section class="class-booking" aria-labelledby="class-booking-heading">
      <h3 id="class-booking-heading">{full ? 'Add a customer to the waitlist' : 'Book a customer'}</h3>
      {customer === null ? (
        <CustomerFinder
          searching={searching}
          submitLabel="Find"
          formLabel="Find the customer to book"
          onChoose={choose}
        />
      ) : (
        <form ref={form} class="booking-form" onSubmit={book} noValidate>
          <p class="chosen">
            <span>{fullName(customer.first_name, customer.last_name)}</span>
            <button type="button" class="quiet" onClick={() => choose(null)}>
              Change customer
            </button>
          </p>
          {questions.map((q) => (
            <QuestionField
              key={q.id}
              question={q}
              value={typed[q.id] ?? ''}
              missing={missing.has(q.id)}
              onAnswer={(value) => answer(q, value)}
            />
          ))}
          <div class="actions">
            <button type="submit" disabled={sending}>
              {full ? 'Add to waitlist' : 'Book'}
            </button>
          </div>
          <ErrorLine message={error} />
        </form>
      )}
    </section>
  )
}

/** One question: free text, yes or no, or one of its choices; a required one says so. */
function QuestionField({
  question: q,
  value,
  missing,
  onAnswer,
}: {
  question: EventQuestion
  value: string
  missing: boolean
  onAnswer: (value: string) => void
}) {
  const label = q.is_required ? `${q.text} (required)` : q.text
  const name = `question-${q.id}`
  const problem = missing ? `question-${q.id}-missing` : undefined
  const pick = (options: [string, string][]) => (
    <select
      name={name}
      value={value}
      aria-invalid={missing}
      aria-describedby={problem}
      onChange={(e) => onAnswer(e.currentTarget.value)}
    >
      <option value="">Choose…</option>
      {options.map(([v, words]) => (
        <option key={v} value={v}>
          {words}
        </option>
      ))}
    </select>
  )
  return (
    <div class="question">
      <label>
        {label}
        {q.kind === 'BOO' ? (
          pick([
            ['yes', 'Yes'],
            ['no', 'No'],
          ])
        ) : q.kind === 'CHO' ? (
          pick(q.choices.map((c) => [c, c]))
        ) : (
          <input
            name={name}
            autocomplete="off"
            maxLength={1000}
            value={value}
            aria-invalid={missing}
            aria-describedby={problem}
            onInput={(e) => onAnswer(e.currentTarget.value)}
          />
        )}
      </label>
      {missing && (
        <p id={problem} class="error">
          This question needs an answer.
        </p>
      )}
    </div>
  )
}

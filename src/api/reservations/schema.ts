import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

/** An answer to one of the event type's questions: text, true or false (BOO), or a choice (CHO). */
export const AnswerIn = t.Object({
  question_id: field.integer({ description: "One of the event type's active questions" }),
  answer: t.Union([t.String({ maxLength: 1000 }), t.Boolean()], {
    description: 'Text for TXT, true or false for BOO, one of the choices for CHO',
  }),
})

export const AnswersIn = t.Array(AnswerIn, {
  description: "Answers to the event type's questions, each once; every required question answered",
})

export const AnswerOut = t.Object({
  question_id: t.Integer(),
  question_text: t.String({ description: 'The question as it reads now' }),
  answer: t.Union([t.String(), t.Boolean()]),
})

export const ReservationCreate = t.Object({
  event_id: field.integer({ description: 'An event that is not cancelled' }),
  customer_id: field.integer({ description: 'An active customer' }),
  includes_entry: t.Optional(
    field.bool({ description: 'Whether the reservation lets its holder in; default true' }),
  ),
  answers: t.Optional(AnswersIn),
  event_voucher_id: t.Optional(
    field.nullable(
      field.integer({
        description:
          "One of the customer's event vouchers, for the event's type, with a use left: one use is taken, and given back if the reservation is cancelled before the event starts",
      }),
    ),
  ),
})

/** PUT/PATCH: the event and the customer may be sent again but not changed. */
export const ReservationReplace = t.Object({
  event_id: field.integer({ description: 'Cannot be changed' }),
  customer_id: field.integer({ description: 'Cannot be changed' }),
  includes_entry: t.Optional(field.bool()),
  checked_in: t.Optional(field.bool()),
})

export const NoBody = t.Object({})

export const ReservationOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    event_id: t.Integer(),
    event_url: out.url(),
    event_name: t.String(),
    event_start_at: out.datetime(),
    event_end_at: out.datetime(),
    gym_id: t.Integer(),
    customer_id: t.Integer(),
    customer_url: out.url(),
    customer_first_name: t.String(),
    customer_last_name: t.String(),
    includes_entry: t.Boolean(),
    is_cancelled: t.Boolean(),
    checked_in: t.Boolean(),
    answers: t.Array(AnswerOut),
    event_voucher_id: field.nullable(t.Integer()),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: ["A customer's place at an event. Cancel it with `cancel/`; never deleted."].join(' '),
  },
)

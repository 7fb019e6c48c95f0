import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { AnswerOut, AnswersIn } from '../reservations/schema.ts'
import { choices } from '../../lib/choices.ts'

export const WAITLIST_STATUSES = choices({
  WAI: 'Waiting',
  PRO: 'Promoted',
  CAN: 'Cancelled',
  EXP: 'Expired',
})

export const WaitlistEntryCreate = t.Object({
  event_id: field.integer({ description: 'A full event that has not started' }),
  customer_id: field.integer({ description: 'An active customer' }),
  answers: t.Optional(AnswersIn),
})

export const NoBody = t.Object({})

export const WaitlistEntryOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    event_id: t.Integer(),
    event_url: out.url(),
    customer_id: t.Integer(),
    customer_url: out.url(),
    customer_first_name: t.String(),
    customer_last_name: t.String(),
    position: field.nullable(
      t.Integer({ readOnly: true, description: '1-based among those waiting; null once not waiting' }),
    ),
    status: t.String({
      description:
        'WAI waiting, PRO promoted (see reservation_id), CAN cancelled, EXP expired (still waiting when the event started)',
    }),
    reservation_id: field.nullable(t.Integer({ description: 'The reservation it became, once promoted' })),
    answers: t.Array(AnswerOut),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  { description: 'A customer waiting for a spot at a full event. Never deleted: leave with `cancel/`.' },
)

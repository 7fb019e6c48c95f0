import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { choices } from '../../lib/choices.ts'

/** TXT free text, BOO yes or no, CHO one of the question's choices. */
export const QUESTION_KINDS = choices({ TXT: 'Free text', BOO: 'Yes or no', CHO: 'One of the choices' })
export type QuestionKind = (typeof QUESTION_KINDS)[number]

/** Django's IntegerField bounds, which DRF gives a model's integer. */
const SORT_ORDER_MIN = -2147483648
const SORT_ORDER_MAX = 2147483647

/** POST and PUT: text required, the rest defaulted on create and kept on PUT when left out. */
export const EventQuestionWrite = t.Object({
  text: field.text({ maxLength: 1000, description: 'The question as the customer reads it' }),
  kind: t.Optional(
    field.choice(QUESTION_KINDS, {
      description: 'TXT free text (default), BOO yes or no, CHO one of `choices`',
    }),
  ),
  choices: t.Optional(
    t.Array(field.text({ maxLength: 255 }), {
      description: [
        'For CHO: the answers to pick from, in the order shown, each not blank and named once',
        '(surrounding white space is trimmed); empty for TXT and BOO; default []',
      ].join(' '),
    }),
  ),
  is_required: t.Optional(field.bool({ description: 'A booking must answer it; default false' })),
  sort_order: t.Optional(
    field.integer({
      min: SORT_ORDER_MIN,
      max: SORT_ORDER_MAX,
      description: 'Questions are asked in ascending sort_order, then id; default 0',
    }),
  ),
  is_active: t.Optional(
    field.bool({ description: 'False: no longer asked (answers already given keep it); default true' }),
  ),
})

export const EventQuestionOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    event_type_id: t.Integer({ readOnly: true }),
    text: t.String(),
    kind: t.String({ description: 'TXT, BOO or CHO' }),
    choices: t.Array(t.String(), { description: 'For CHO, in the order shown; [] otherwise' }),
    is_required: t.Boolean(),
    sort_order: t.Integer(),
    is_active: t.Boolean(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A question of an event type, answered when one of its events is booked or its waitlist joined:',
      'free text (TXT), yes or no (BOO: the answer is true or false) or one of its choices (CHO). A',
      'required one must be answered. Never deleted: deactivate it with `is_active: false`; it is',
      'then no longer asked, and the answers already given keep naming it.',
    ].join(' '),
  },
)

import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'

export const EventCategoryWrite = t.Object({
  name: field.text({ maxLength: 255 }),
})

export const EventCategoryOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    name: t.String(),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      "What event types are filed under (Youth, Instruction), and what the metrics'",
      '`event_category_ids` filter matches.',
    ].join(' '),
  },
)

import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { RELATION_CODES } from '../../domain/relations.ts'
import { timestampsOut } from '../customer-records/schema.ts'

export const RelationCreate = t.Object({
  related_customer_id: field.integer({
    description: 'A customer id: not this customer, and not one already related',
  }),
  relation: field.choice(RELATION_CODES, {
    description:
      'The related customer relative to this one: SPO spouse, PRT partner, PRE parent, CHI child, ' +
      'GUA guardian, WAR ward, SIB sibling, OTH other. The reverse relation is created with the mirrored code.',
  }),
})

export const RelationOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    related_customer_id: t.Integer(),
    related_customer_url: out.url(),
    related_customer_email: field.nullable(t.String({ readOnly: true })),
    related_customer_first_name: t.String({ readOnly: true }),
    related_customer_last_name: t.String({ readOnly: true }),
    relation: t.String(),
    ...timestampsOut,
  },
  {
    description: [
      'A relation between two customers, kept in both directions: each side reads it with its own',
      'code (a parent `PRE` on one side is a child `CHI` on the other).',
    ].join(' '),
  },
)

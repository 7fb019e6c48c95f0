import type { Static } from '@sinclair/typebox'
import { deleteRelationPair, insertRelations, relationExists, type RelationRow } from './queries.ts'
import type { RelationCreate } from './schema.ts'
import { customerExists } from '../customers/queries.ts'
import type { RelationCode } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { messages } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { creationTimes } from '../customer-records/record-rules.ts'
import { MIRRORED_RELATION } from '../../domain/relations.ts'

export const relatedToSelf = 'A customer cannot be related to themselves.'
export const alreadyRelated = messages.unique('customer relation', 'related customer')

/**
 * Creates A→B and B→A together. The checks run inside the same transaction as the insert, so two
 * requests relating the same pair (in either direction) cannot both pass them.
 */
export async function createRelation(
  deps: Pick<Deps, 'db' | 'clock'>,
  customerId: number,
  body: CheckedBody<Static<typeof RelationCreate>>,
): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const relatedId = body.fields.related_customer_id
    if (relatedId !== undefined) {
      const field = 'related_customer_id'
      if (relatedId === customerId) body.errors.add(field, relatedToSelf)
      else if (!(await customerExists(trx, relatedId)))
        body.errors.add(field, messages.doesNotExist(relatedId))
      else if (await relationExists(trx, customerId, relatedId)) body.errors.add(field, alreadyRelated)
    }
    const input = body.valid()
    const times = creationTimes(deps)
    const [id] = await insertRelations(trx, [
      {
        customer_id: customerId,
        related_customer_id: input.related_customer_id,
        relation: input.relation,
        ...times,
      },
      {
        customer_id: input.related_customer_id,
        related_customer_id: customerId,
        relation: MIRRORED_RELATION[input.relation],
        ...times,
      },
    ])
    return id!
  })
}

/** DELETE of either direction removes both (one statement, so no half-removed pair). */
export async function removeRelation(deps: Pick<Deps, 'db'>, row: RelationRow): Promise<void> {
  await deleteRelationPair(deps.db, row.customer_id, row.related_customer_id)
}

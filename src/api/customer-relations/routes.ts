import { createRelation, removeRelation } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { paragraphs } from '../../http/docs.ts'
import { customerRecordRoutes } from '../customer-records/collection.ts'
import { getRelation, listRelations } from './queries.ts'
import { RelationCreate, RelationOut } from './schema.ts'
import { serializeRelation } from './serializer.ts'

/**
 * /api/customers/<customer_id>/relations/: list, read, create, DELETE. No PUT or
 * PATCH (405): a relation is removed and created again, so both directions always agree.
 */
export const customerRelationRoutes = (deps: Deps) =>
  customerRecordRoutes(deps, {
    name: 'relations',
    noun: 'customer relation',
    descriptions: {
      create: paragraphs(
        [
          'Relates the customer to `related_customer_id` and, in the same write, that customer back to',
          'this one with the mirrored code (`PRE` parent and `CHI` child, `GUA` guardian and `WAR` ward).',
        ],
        [
          'Relating a customer to themselves is `A customer cannot be related to themselves.`; a pair',
          'already related (from either side) is `customer relation with this related customer already',
          'exists.`; an unknown customer is `Invalid pk "99" - object does not exist.`; all on',
          '`related_customer_id`. There is no PUT or PATCH (405): remove a relation and create it again.',
        ],
      ),
      remove: 'Removes both directions. Answers 204 with no body.',
    },
    output: RelationOut,
    list: listRelations,
    get: getRelation,
    serialize: serializeRelation,
    create: { body: RelationCreate, run: createRelation },
    remove: removeRelation,
  })

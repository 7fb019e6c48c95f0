import { createRelation, removeRelation } from './rules.ts'
import type { Deps } from '../../deps.ts'
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
    output: RelationOut,
    list: listRelations,
    get: getRelation,
    serialize: serializeRelation,
    create: { body: RelationCreate, run: createRelation },
    remove: removeRelation,
  })

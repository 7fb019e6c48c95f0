import type { Actor } from '../../domain/actor.ts'
import type { Static, TObject } from '@sinclair/typebox'
import type { ListSource } from '../../db/list-source.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes, type CollectionSpec } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import type { Urls } from '../../http/urls.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { customerExists } from '../customers/queries.ts'

type Db = Deps['db']

/**
 * A collection under /api/customers/<customer_id>/<name>/. Every such collection is
 * read by any staff user and written with can_manage_members; an unknown customer,
 * or a record of another customer, is 404. Each brings queries by customer id and its rules.
 */
export interface CustomerRecordSpec<
  Row,
  Out extends TObject,
  Create extends TObject,
  Replace extends TObject,
> {
  /** Path segment, e.g. 'credits' */
  name: string
  /** Singular, e.g. 'customer credit' */
  noun: string
  /** Each operation's own rules (Markdown); the list's order is written here, before its own. */
  descriptions?: CollectionSpec<Row, Out, Create, Replace, typeof noFilters>['descriptions']
  output: Out
  list(db: Db, customerId: number): ListSource<Row>
  /** Undefined for no such record and for another customer's record. */
  get(db: Db, customerId: number, id: number): Promise<Row | undefined>
  /** `now` for fields computed at read time (is_expired). */
  serialize(row: Row, urls: Urls, now: Date): Static<Out>
  create?: {
    body: Create
    run(deps: Deps, customerId: number, body: CheckedBody<Static<Create>>, actor: Actor): Promise<number>
  }
  replace?: {
    body: Replace
    run(deps: Deps, row: Row, body: CheckedBody<Partial<Static<Replace>>>): Promise<void>
  }
  remove?: (deps: Deps, row: Row) => Promise<void>
}

const noFilters = defineFilters({})

/**
 * The parent of every collection under /api/customers/<customer_id>/ (records, alerts, documents,
 * check-ins): 404 for a customer that does not exist.
 */
export const customerParent = {
  param: 'customer_id',
  exists: (deps: Pick<Deps, 'db'>, id: number) => customerExists(deps.db, id),
}

export function customerRecordRoutes<
  Row,
  Out extends TObject,
  Create extends TObject,
  Replace extends TObject,
>(deps: Deps, spec: CustomerRecordSpec<Row, Out, Create, Replace>) {
  const { create, replace, remove } = spec
  return collectionRoutes(deps, {
    path: `/api/customers/:customer_id/${spec.name}`,
    parent: customerParent,
    tag: 'Customer records',
    noun: spec.noun,
    read: 'staff',
    write: 'can_manage_members',
    descriptions: {
      ...spec.descriptions,
      list: ["The customer's records, oldest first (by id).", spec.descriptions?.list].join(' ').trim(),
    },
    filters: noFilters,
    output: spec.output,
    list: ({ deps, parentId }) => spec.list(deps.db, parentId),
    get: ({ deps, parentId }, id) => spec.get(deps.db, parentId, id),
    serialize: (row, urls) => spec.serialize(row, urls, deps.clock.now()),
    create: create && {
      body: create.body,
      run: ({ deps, parentId }, body, actor) => create.run(deps, parentId, body, actor),
    },
    replace: replace && { body: replace.body, run: ({ deps }, row, body) => replace.run(deps, row, body) },
    remove: remove && { run: ({ deps }, row) => remove(deps, row) },
  })
}

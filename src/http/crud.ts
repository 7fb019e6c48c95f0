import { Elysia, t, type Static } from 'elysia'
import type { TObject } from '@sinclair/typebox'
import type { StaffUser } from '../db/schema.ts'
import type { Deps } from '../deps.ts'
import { authenticated } from './auth.ts'
import { docs, envelopeOf } from './docs.ts'
import { notFound } from './errors.ts'
import type { FilterValues } from './filters.ts'
import { defineFilters } from './filters.ts'
import { pageParams, paginate } from './pagination.ts'
import { requires, type Permission } from './permissions.ts'
import type { Urls } from './urls.ts'
import { checkBody, type CheckedBody } from './validation.ts'

/** What a use case gets besides its input: who asks, and how to write URLs. */
export interface Actor {
  user: StaffUser
  urls: Urls
}

type Filters = ReturnType<typeof defineFilters<any>>

/**
 * One collection's ordinary routes (list, read, create, replace, update), DRF-style: the route table
 * is the same for every collection, so it lives here once; each collection brings its schemas,
 * queries, rules and serializer. Leave out `create`/`replace`/`update` and that method answers 405.
 */
export interface CollectionSpec<Row, Create extends TObject, Replace extends TObject, F extends Filters> {
  /** e.g. '/api/gyms' (no final slash) */
  path: string
  tag: string
  /** Singular name for summaries, e.g. 'gym' */
  noun: string
  read: Permission
  write: Permission
  filters: F
  output: TObject
  count(deps: Deps, filters: FilterValues<any>): Promise<number>
  list(deps: Deps, filters: FilterValues<any>, limit: number, offset: number): Promise<Row[]>
  get(deps: Deps, id: number): Promise<Row | undefined>
  serialize(row: Row, urls: Urls): unknown
  /** POST: checks the body's remaining rules, then writes; returns the new id. */
  create?: { body: Create; run(deps: Deps, body: CheckedBody<Static<Create>>, actor: Actor): Promise<number> }
  /** PUT: the whole writable record; PATCH gets the same schema with every field optional. */
  replace?: {
    body: Replace
    run(deps: Deps, row: Row, body: CheckedBody<Partial<Static<Replace>>>, actor: Actor): Promise<void>
  }
}

/** A path id: any integer (0 or -1 simply match no record: 404); anything else is 404 too. */
const idParams = t.Object({ id: t.Integer() })

export function collectionRoutes<Row, Create extends TObject, Replace extends TObject, F extends Filters>(
  deps: Deps,
  spec: CollectionSpec<Row, Create, Replace, F>,
) {
  const fetch = async (id: number) => {
    const row = await spec.get(deps, id)
    if (row === undefined) throw notFound()
    return row
  }
  const detail = (id: number, urls: Urls) => fetch(id).then((row) => spec.serialize(row, urls))
  const app = new Elysia({ prefix: spec.path })
    .use(authenticated(deps))
    .get(
      '/',
      ({ request, query: rawQuery, urls }) => {
        const query = rawQuery as Record<string, string | undefined>
        const filters = spec.filters.parse(query)
        return paginate(
          request,
          query,
          urls,
          {
            count: () => spec.count(deps, filters),
            rows: (limit, offset) => spec.list(deps, filters, limit, offset),
          },
          (row: Row) => spec.serialize(row, urls),
        )
      },
      {
        query: spec.filters.query,
        ...requires(spec.read),
        ...docs({
          tag: spec.tag,
          summary: `List ${spec.noun}s`,
          ok: { status: 200, schema: envelopeOf(spec.output) },
          errors: [400, 404],
        }),
      },
    )
    .get('/:id/', ({ params, urls }) => detail(params.id, urls), {
      params: idParams,
      ...requires(spec.read),
      ...docs({
        tag: spec.tag,
        summary: `Read a ${spec.noun}`,
        ok: { status: 200, schema: spec.output },
        errors: [404],
      }),
    })

  const create = spec.create
  if (create) {
    app.post(
      '/',
      async ({ body, user, urls, set }) => {
        const id = await create.run(deps, checkBody(create.body, body), { user, urls })
        set.status = 201
        return detail(id, urls)
      },
      {
        ...requires(spec.write),
        ...docs({
          tag: spec.tag,
          summary: `Create a ${spec.noun}`,
          body: create.body,
          ok: { status: 201, schema: spec.output },
          errors: [400],
        }),
      },
    )
  }
  const replace = spec.replace
  if (replace) {
    const update = async (id: number, body: CheckedBody<Partial<Static<Replace>>>, actor: Actor) => {
      await replace.run(deps, await fetch(id), body, actor)
      return detail(id, actor.urls)
    }
    const partial = t.Partial(replace.body)
    const writeDocs = (summary: string, body: TObject) => ({
      params: idParams,
      ...requires(spec.write),
      ...docs({ tag: spec.tag, summary, body, ok: { status: 200, schema: spec.output }, errors: [400, 404] }),
    })
    app
      .put(
        '/:id/',
        ({ params, body, user, urls }) => update(params.id, checkBody(replace.body, body), { user, urls }),
        writeDocs(`Replace a ${spec.noun}`, replace.body),
      )
      .patch(
        '/:id/',
        ({ params, body, user, urls }) => update(params.id, checkBody(partial, body), { user, urls }),
        writeDocs(`Update a ${spec.noun}`, partial),
      )
  }
  return app
}

/**
 * Sub-collections the reference names but this version does not hold yet (a gym's climbs, an event
 * type's questions): each answers an empty list for an existing parent and 404 otherwise, so the
 * `*_url` fields never point nowhere.
 */
export function emptySubCollections(
  deps: Deps,
  spec: { path: string; tag: string; names: string[]; parentExists(id: number): Promise<boolean> },
) {
  const app = new Elysia({ prefix: spec.path }).use(authenticated(deps))
  for (const name of spec.names) {
    app.get(
      `/:id/${name}/`,
      async ({ params, request, query, urls }) => {
        if (!(await spec.parentExists(params.id))) throw notFound()
        return paginate(request, query, urls, { count: async () => 0, rows: async () => [] }, (row) => row)
      },
      {
        params: idParams,
        query: t.Object(pageParams),
        ...requires('staff'),
        ...docs({
          tag: spec.tag,
          summary: `List ${name} (empty in this version)`,
          ok: { status: 200, schema: envelopeOf(t.Object({})) },
          errors: [404],
        }),
      },
    )
  }
  return app
}

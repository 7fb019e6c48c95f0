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
  create?: { body: Create; run(deps: Deps, body: Static<Create>, actor: Actor): Promise<number> }
  /** PUT: the whole writable record; PATCH gets the same schema with every field optional. */
  replace?: {
    body: Replace
    run(deps: Deps, row: Row, body: Partial<Static<Replace>>, actor: Actor): Promise<void>
  }
}

const idParams = t.Object({ id: t.Integer({ minimum: 1 }) })

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
        const id = await create.run(deps, body as Static<Create>, { user, urls })
        set.status = 201
        return detail(id, urls)
      },
      {
        body: create.body,
        ...requires(spec.write),
        ...docs({
          tag: spec.tag,
          summary: `Create a ${spec.noun}`,
          ok: { status: 201, schema: spec.output },
          errors: [400],
        }),
      },
    )
  }
  const replace = spec.replace
  if (replace) {
    const update = async (id: number, body: Partial<Static<Replace>>, actor: Actor) => {
      await replace.run(deps, await fetch(id), body, actor)
      return detail(id, actor.urls)
    }
    app
      .put(
        '/:id/',
        ({ params, body, user, urls }) => update(params.id, body as Static<Replace>, { user, urls }),
        {
          params: idParams,
          body: replace.body,
          ...requires(spec.write),
          ...docs({
            tag: spec.tag,
            summary: `Replace a ${spec.noun}`,
            ok: { status: 200, schema: spec.output },
            errors: [400, 404],
          }),
        },
      )
      .patch(
        '/:id/',
        ({ params, body, user, urls }) => update(params.id, body as Partial<Static<Replace>>, { user, urls }),
        {
          params: idParams,
          body: t.Partial(replace.body),
          ...requires(spec.write),
          ...docs({
            tag: spec.tag,
            summary: `Update a ${spec.noun}`,
            ok: { status: 200, schema: spec.output },
            errors: [400, 404],
          }),
        },
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

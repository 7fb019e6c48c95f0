import { Elysia, t, type AnyElysia, type Static } from 'elysia'
import type { TObject } from '@sinclair/typebox'
import type { Deps } from '../deps.ts'
import { authenticated } from './auth.ts'
import { docs, envelopeOf, FieldErrors, named, pascalCase, type DocOptions } from './docs.ts'
import { messages, notFound, ValidationError } from './errors.ts'
import { pageParams, paginate } from './pagination.ts'
import {
  contentDispositionHeader,
  CSV_CHUNK_ROWS,
  csvBody,
  csvFormatParam,
  csvResponse,
  csvRules,
  demandExport,
  serializedChunks,
  wantsCsv,
} from './csv-export.ts'
import { csvColumns } from '../lib/csv-write.ts'
import { RecordId } from './record-id.ts'
import { requires, whoMay } from './permissions.ts'
import type { Urls } from './urls.ts'
import { checkBody, type CheckedBody } from './validation.ts'
import type {
  CollectionOperation,
  CollectionSpec,
  Filters,
  IdKind,
  IdOf,
  Parent,
  ParentId,
  RequestActor,
  Scope,
} from './crud-spec.ts'

export type {
  CollectionOperation,
  CollectionSpec,
  IdKind,
  IdOf,
  Parent,
  ParentId,
  RecordAction,
  RequestActor,
  Scope,
} from './crud-spec.ts'

/**
 * A write's rules look a unique value up before writing it (`discount with this code already
 * exists.`), but two requests can both look before either writes: the second then meets the
 * table's UNIQUE constraint, which is answered with the same 400 on that field, not a 500. A value
 * unique within its parent (a grade's name within its gym and discipline) fails on several columns,
 * the scoping ones first: the field named is the last, the one the client chose.
 */
async function refusingDuplicates<T>(noun: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
    const column =
      code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string'
        ? /^UNIQUE constraint failed: (?:\w+\.\w+, )*\w+\.(\w+)$/.exec(message)?.[1]
        : undefined
    if (column === undefined) throw error
    throw ValidationError.field(column, messages.unique(noun, column))
  }
}

/** The routes of a collection at the top level: `parentId` is null. */
export function collectionRoutes<
  Row,
  Out extends TObject,
  Create extends TObject,
  Replace extends TObject,
  F extends Filters,
  K extends IdKind = 'integer',
  Target = Row,
>(
  deps: Deps,
  spec: CollectionSpec<Row, Out, Create, Replace, F, K, null, Target> & { parent?: undefined },
): AnyElysia
/** The routes of a collection under a parent record: `parentId` is that record's id. */
export function collectionRoutes<
  Row,
  Out extends TObject,
  Create extends TObject,
  Replace extends TObject,
  F extends Filters,
  K extends IdKind = 'integer',
  Target = Row,
>(
  deps: Deps,
  spec: CollectionSpec<Row, Out, Create, Replace, F, K, number, Target> & { parent: Parent },
): AnyElysia
export function collectionRoutes<
  Row,
  Out extends TObject,
  Create extends TObject,
  Replace extends TObject,
  F extends Filters,
  K extends IdKind,
  Target,
>(deps: Deps, spec: CollectionSpec<Row, Out, Create, Replace, F, K, ParentId, Target>): AnyElysia {
  const parent = spec.parent
  // Integer ids are digits (RecordId): 0 simply matches no record (404), any other spelling is 404.
  // A top-level list has no path parameters: Elysia refuses an empty params schema, so give none.
  const listParams = parent ? { params: t.Object({ [parent.param]: RecordId() }) } : {}
  const idParam = spec.idType === 'string' ? t.String() : RecordId()
  const idName = spec.idParam ?? 'id'
  const recordParams = t.Object(
    parent ? { [parent.param]: RecordId(), [idName]: idParam } : { [idName]: idParam },
  )
  const record = `/:${idName}/`
  const recordId = (params: Record<string, unknown>) => params[idName] as IdOf<K>

  /** The scope named by the path; 404 when the parent record does not exist. */
  const scopeOf = async (params: Record<string, unknown>): Promise<Scope> => {
    if (!parent) return { deps, parentId: null }
    const parentId = params[parent.param] as number
    if (!(await parent.exists(deps, parentId))) throw notFound()
    return { deps, parentId }
  }
  const found = <T>(row: T | undefined): T => {
    if (row === undefined) throw notFound()
    return row
  }
  /** What a write or an action acts on (404 when there is none); without `target`, Target is Row. */
  const targetOf = async (scope: Scope, id: IdOf<K>): Promise<Target> =>
    found(await (spec.target ? spec.target(scope, id) : (spec.get(scope, id) as Promise<Target | undefined>)))
  /** The record as it is now, as the response shows it. */
  const detail = async (scope: Scope, id: IdOf<K>, urls: Urls) =>
    spec.serialize(found(await spec.get(scope, id)), urls)
  // The document names each shape after the collection's noun: Gym, GymCreate, PatchedGym, ...
  const name = pascalCase(spec.noun)
  const output = named(name, spec.output)
  const listParamDocs = parent ? { [parent.param]: parent.description ?? idDescription(parent.param) } : {}
  const recordParamDocs = { ...listParamDocs, [idName]: `The ${spec.noun}'s id` }
  const doc = (
    summary: string,
    ok: { status: number; schema: TObject | null },
    errors: number[],
    more: Partial<DocOptions> = {},
  ) => docs({ tag: spec.tag, summary, ok, errors, params: recordParamDocs, ...more })
  const described = (operation: CollectionOperation) => ({
    description: whoMay(
      operation === 'list' || operation === 'read' ? spec.read : spec.write,
      spec.descriptions?.[operation],
    ),
  })
  const hasFilters = Object.keys(spec.filters.query.properties).some((k) => !(k in pageParams))
  const csv = spec.csv
  const csvColumnsOf = csv ? csvColumns(spec.output) : []
  const listQuery = csv
    ? t.Object({ ...spec.filters.query.properties, format: csvFormatParam })
    : spec.filters.query

  const app = new Elysia({ prefix: spec.path })
    .use(authenticated(deps))
    .get(
      '/',
      async ({ request, query: rawQuery, params, urls, user }) => {
        const query = rawQuery as Record<string, string | undefined>
        const exporting = csv !== undefined && wantsCsv(query)
        if (exporting && csv.permission) demandExport(user, csv.permission)
        const scope = await scopeOf(params)
        const filters = spec.filters.parse(query) as ReturnType<F['parse']>
        if (exporting) {
          const source = await spec.list(scope, filters)
          if (!source.chunks) throw new Error(`${spec.path}: format=csv needs a list ordered by a keyset`)
          return csvResponse({
            collection: spec.path.split('/').at(-1)!,
            day: await csv.today(deps),
            columns: csvColumnsOf,
            chunks: serializedChunks(source.chunks(CSV_CHUNK_ROWS), (row) => spec.serialize(row, urls)),
            log: deps.log,
          })
        }
        return paginate(request, query, urls, await spec.list(scope, filters), (row) =>
          spec.serialize(row, urls),
        )
      },
      {
        ...listParams,
        ...requires(spec.read),
        // The filters are read from the raw strings (`parse`); their typed schema is documentation.
        ...doc(
          `List ${spec.plural ?? `${spec.noun}s`}`,
          {
            status: 200,
            schema: envelopeOf(output),
            ...(csv ? { csv: { body: csvBody(csvColumnsOf), header: contentDispositionHeader } } : {}),
          },
          [404],
          {
            params: listParamDocs,
            query: listQuery,
            filters: hasFilters,
            description: whoMay(
              spec.read,
              [spec.descriptions?.list, csv ? csvRules(csv.permission) : undefined]
                .filter((part) => part !== undefined)
                .join('\n\n') || undefined,
            ),
          },
        ),
      },
    )
    .get(record, async ({ params, urls }) => detail(await scopeOf(params), recordId(params), urls), {
      params: recordParams,
      ...requires(spec.read),
      ...doc(`Read a ${spec.noun}`, { status: 200, schema: output }, [404], described('read')),
    })

  const create = spec.create
  if (create) {
    app.post(
      '/',
      async ({ body, params, user, credential, urls, set }) => {
        const scope = await scopeOf(params)
        const id = await refusingDuplicates(spec.noun, () =>
          create.run(scope, checkBody(create.body, body), { user, credential, urls }),
        )
        set.status = 201
        return detail(scope, id, urls)
      },
      {
        ...listParams,
        ...requires(spec.write),
        ...doc(`Create a ${spec.noun}`, { status: 201, schema: output }, [404], {
          params: listParamDocs,
          body: named(`${name}Create`, create.body),
          ...described('create'),
        }),
      },
    )
  }
  const replace = spec.replace
  if (replace) {
    const partial = t.Partial(replace.body)
    const update = async (
      params: Record<string, unknown>,
      schema: TObject,
      body: unknown,
      actor: RequestActor,
    ) => {
      const scope = await scopeOf(params)
      const row = await targetOf(scope, recordId(params))
      await refusingDuplicates(spec.noun, () =>
        replace.run(scope, row, checkBody(schema, body) as CheckedBody<Partial<Static<Replace>>>, actor),
      )
      return detail(scope, recordId(params), actor.urls)
    }
    const writeOptions = (summary: string, body: TObject, operation: CollectionOperation) => ({
      params: recordParams,
      ...requires(spec.write),
      ...doc(summary, { status: 200, schema: output }, [404], { body, ...described(operation) }),
    })
    if (!replace.patchOnly) {
      app.put(
        record,
        ({ params, body, user, credential, urls }) =>
          update(params, replace.body, body, { user, credential, urls }),
        writeOptions(`Replace a ${spec.noun}`, named(`${name}Replace`, replace.body), 'replace'),
      )
    }
    app.patch(
      record,
      ({ params, body, user, credential, urls }) => update(params, partial, body, { user, credential, urls }),
      writeOptions(`Update a ${spec.noun}`, named(`Patched${name}`, partial), 'update'),
    )
  }
  for (const action of spec.actions ?? []) {
    app.post(
      `${record}${action.name}/`,
      async ({ params, body, user, credential, urls }) => {
        const scope = await scopeOf(params)
        const id = recordId(params)
        await action.run(scope, await targetOf(scope, id), checkBody(action.body, body), {
          user,
          credential,
          urls,
        })
        return detail(scope, id, urls)
      },
      {
        params: recordParams,
        ...requires(action.permission ?? spec.write),
        ...doc(action.summary, { status: 200, schema: output }, [400, 404], {
          body: named(`${name}${pascalCase(action.name)}`, action.body),
          description: whoMay(action.permission ?? spec.write, action.description),
        }),
      },
    )
  }
  const remove = spec.remove
  if (remove) {
    app.delete(
      record,
      async ({ params, user, credential, urls, set }) => {
        const scope = await scopeOf(params)
        await remove.run(scope, await targetOf(scope, recordId(params)), { user, credential, urls })
        set.status = 204
        return ''
      },
      {
        params: recordParams,
        ...requires(spec.write),
        ...doc(`Remove a ${spec.noun}`, { status: 204, schema: null }, [404], {
          ...described('remove'),
          ...(remove.refusal
            ? { errorBodies: { 400: { description: remove.refusal, json: FieldErrors } } }
            : {}),
        }),
      },
    )
  }
  return app
}

/** 'customer_id' -> "The customer's id". */
const idDescription = (param: string) => `The ${param.replace(/_id$/, '').replace(/_/g, ' ')}'s id`

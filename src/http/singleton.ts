import { Elysia, t, type Static } from 'elysia'
import type { TObject } from '@sinclair/typebox'
import type { Deps } from '../deps.ts'
import { authenticated } from './auth.ts'
import type { RequestActor } from './crud.ts'
import { docs, named, pascalCase } from './docs.ts'
import { requires, whoMay, type Permission } from './permissions.ts'
import type { Urls } from './urls.ts'
import { checkBody, type CheckedBody } from './validation.ts'

/**
 * The routes of one record with no id in its path (`/api/organization/`, `/api/my-account/`), as a
 * DRF view over `get_object()` alone: GET reads it; PUT takes the whole writable record and PATCH the
 * same schema with every field optional, each answering 200 with the record as it is after the
 * change. The record always exists, so there is no 404, and nothing to list, create or remove.
 */
export interface SingletonSpec<Row, Out extends TObject, Replace extends TObject> {
  /** e.g. '/api/organization' (no final slash) */
  path: string
  tag: string
  /** What the docs call each method, e.g. 'Read the organization'. */
  summaries: { read: string; replace: string; update: string }
  /** Each method's rules in words (Markdown), shown beneath who may call it. */
  descriptions?: { read?: string; replace?: string; update?: string }
  read: Permission
  write: Permission
  output: Out
  /** The record as it is now; `actor` for a record that is the user's own (my-account). */
  get(deps: Deps, actor: RequestActor): Promise<Row>
  serialize(row: Row, urls: Urls): Static<Out>
  replace: {
    body: Replace
    run(deps: Deps, body: CheckedBody<Partial<Static<Replace>>>, actor: RequestActor): Promise<void>
  }
}

export function singletonRoutes<Row, Out extends TObject, Replace extends TObject>(
  deps: Deps,
  spec: SingletonSpec<Row, Out, Replace>,
) {
  const { replace, tag, summaries } = spec
  // Named after the tag, as collections are after their noun: Organization, PatchedOrganization, ...
  const name = pascalCase(tag)
  const ok = { status: 200, schema: named(name, spec.output) }
  const detail = async (actor: RequestActor) => spec.serialize(await spec.get(deps, actor), actor.urls)
  const update = async (schema: TObject, body: unknown, actor: RequestActor) => {
    await replace.run(deps, checkBody(schema, body) as CheckedBody<Partial<Static<Replace>>>, actor)
    return detail(actor)
  }
  const partial = t.Partial(replace.body)
  return new Elysia({ prefix: spec.path })
    .use(authenticated(deps))
    .get(
      '/',
      ({ user, credential, pinMode, kiosk, urls }) => detail({ user, credential, pinMode, kiosk, urls }),
      {
        ...requires(spec.read),
        ...docs({
          tag,
          summary: summaries.read,
          description: whoMay(spec.read, spec.descriptions?.read),
          ok,
        }),
      },
    )
    .put(
      '/',
      ({ body, user, credential, pinMode, urls }) =>
        update(replace.body, body, { user, credential, pinMode, urls }),
      {
        ...requires(spec.write),
        ...docs({
          tag,
          summary: summaries.replace,
          description: whoMay(spec.write, spec.descriptions?.replace),
          body: named(`${name}Replace`, replace.body),
          ok,
        }),
      },
    )
    .patch(
      '/',
      ({ body, user, credential, pinMode, urls }) =>
        update(partial, body, { user, credential, pinMode, urls }),
      {
        ...requires(spec.write),
        ...docs({
          tag,
          summary: summaries.update,
          description: whoMay(spec.write, spec.descriptions?.update),
          body: named(`Patched${name}`, partial),
          ok,
        }),
      },
    )
}

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { authenticated } from './auth.ts'
import { docs, envelopeOf, named } from './docs.ts'
import { notFound } from './errors.ts'
import { pageParams, paginate } from './pagination.ts'
import { requires } from './permissions.ts'
import { RecordId } from './record-id.ts'

/**
 * Sub-collections the API names but this version does not hold yet (a gym's climbs, an event
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
        params: t.Object({ id: RecordId() }),
        ...requires('staff'),
        ...docs({
          tag: spec.tag,
          summary: `List ${name} (empty in this version)`,
          description: [
            'Any staff user.',
            `This version holds no ${name}: the list is always empty, for a parent that exists (404`,
            'otherwise), so that the `*_url` field naming it resolves.',
          ].join(' '),
          ok: {
            status: 200,
            schema: envelopeOf(named('NotHeld', t.Object({}, { description: 'None in this version' }))),
          },
          errors: [404],
          params: { id: 'The id of the record they belong to' },
          query: t.Object(pageParams),
        }),
      },
    )
  }
  return app
}

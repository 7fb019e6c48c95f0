import type { Static } from '@sinclair/typebox'
import { Elysia, t } from 'elysia'
import type { SiteView } from '../../core/sites/site.ts'
import type { ListSource } from '../../db/list-source.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { docs, envelopeOf, named, paragraphs } from '../../http/docs.ts'
import { pageParams, paginate } from '../../http/pagination.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { getConflict, listConflicts } from './queries.ts'
import { conflictFilters, SiteConflictOut, SiteLinkOut, SiteOut } from './schema.ts'
import { serializeConflict, serializeLink, serializeOtherSite, serializeThisSite } from './serializer.ts'

type SiteJson = Static<typeof SiteOut>

/**
 * This box from its own state, then every other site the hub knows from its last heartbeat, by
 * number. While the hub cannot be asked, this box alone: nothing here says how the others are.
 */
async function readSites(site: SiteView): Promise<SiteJson[]> {
  const local = site.status()
  const [known, lastSequence] = await Promise.all([site.hubSites(), site.streamLastSequence()])
  const others = (known ?? []).filter((s) => s.site !== local.site)
  return [
    serializeThisSite(
      local,
      known?.find((s) => s.site === local.site),
      lastSequence,
    ),
    ...others.map((s) => serializeOtherSite(s, lastSequence)),
  ].sort((a, b) => a.number - b.number)
}

/**
 * /api/sites/: the organization's sites (boxes sharing its data through the hub), as this box sees
 * them; /api/sites/link/: whether this box is cut off, for the desk's banner; /api/sites/conflicts/:
 * the unique values two sites gave twice while apart.
 */
export const siteRoutes = (deps: Deps) =>
  new Elysia()
    .use(
      new Elysia({ prefix: '/api/sites' })
        .use(authenticated(deps))
        .get(
          '/',
          async ({ request, query, urls }) => {
            const sites = deps.site ? await readSites(deps.site) : []
            const source: ListSource<SiteJson> = {
              count: async () => sites.length,
              rows: async (limit, offset) => sites.slice(offset, offset + limit),
            }
            return paginate(request, query as Record<string, string | undefined>, urls, source, (s) => s)
          },
          {
            ...requires('admin'),
            ...docs({
              tag: 'Sites',
              summary: "List the organization's sites: how far each has applied, what waits to be sent",
              description: whoMay(
                'admin',
                paragraphs(
                  [
                    'On a box run with `--hub`: this box (`this_box`), from its own state, and every other',
                    'site the hub knows, from its last heartbeat, ordered by `number` and paginated as every',
                    'list is. The hub is asked at each request. While it cannot be asked (`hub_reachable`',
                    "false on this box's row), the list holds this box alone: the others' state is unknown",
                    'here, and `unapplied_changes` is null.',
                  ],
                  [
                    'On a box without a hub the list is empty (`count` 0), as the backups list is with',
                    'snapshots off: the box is a site of nothing, which is no error.',
                  ],
                  [
                    'What to watch: `unsent_changes` and `oldest_unsent_age_seconds` grow while a box is cut',
                    'off (its changes wait in its own database and go once the link returns);',
                    '`unapplied_changes` is how far a site is behind the others; `applying_stopped` says a',
                    'site met a change from a newer version and waits for its upgrade. `/healthz` fails',
                    '(`hub`) on the last two kinds of trouble.',
                  ],
                ),
              ),
              ok: { status: 200, schema: envelopeOf(named('Site', SiteOut)) },
              query: t.Object(pageParams),
              errors: [404],
            }),
          },
        )
        .get('/link/', () => serializeLink(deps.site?.status() ?? null), {
          ...requires('staff'),
          ...docs({
            tag: 'Sites',
            summary: 'Is this box cut off from the other sites (the desk shows a banner while it is)',
            description: whoMay(
              'staff',
              paragraphs([
                "This box's link to the hub, for any staff user: the desk page asks it when it opens",
                'and, on a site, again every 30 seconds, and shows a banner while `hub_reachable` is',
                'false. A cut-off box keeps working: its door, sales and sign-ups go on, and its changes',
                'are sent when the link returns. On a box without a hub every field is null.',
              ]),
            ),
            ok: { status: 200, schema: named('SiteLink', SiteLinkOut) },
          }),
        }),
    )
    .use(
      collectionRoutes(deps, {
        path: '/api/sites/conflicts',
        tag: 'Sites',
        noun: 'site conflict',
        read: 'admin',
        write: 'admin',
        filters: conflictFilters,
        output: SiteConflictOut,
        descriptions: {
          list: paragraphs(
            [
              'A unique value (a customer barcode, a staff email, a discount or gift code, ...) that two',
              'sites gave to two rows while they were apart. When the stream brings them together, the',
              "row given it first (by the sites' clocks) keeps it, at every site alike; the other is",
              'kept without it (`cleared`) or not kept (`refused`), and every site records the conflict',
              'as it applies the stream. A customer who lost a barcode shows it on their record',
              '(`site_conflicts`) until they are given a new one.',
            ],
            [
              'Newest first. Filters: `table` and `lost_site` are exact; `customer_id` gives the',
              'conflicts in which that customer lost a value. Always empty on a box without a hub.',
            ],
          ),
          read: 'One conflict, as the list shows it.',
        },
        list: ({ deps }, filters) => listConflicts(deps.db, filters),
        get: ({ deps }, id) => getConflict(deps.db, id),
        serialize: serializeConflict,
      }),
    )

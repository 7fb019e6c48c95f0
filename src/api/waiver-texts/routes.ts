import { Elysia } from 'elysia'
import { createWaiverText } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { docs, named } from '../../http/docs.ts'
import { notFound } from '../../http/errors.ts'
import { defineFilters } from '../../http/filters.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { getCurrentWaiverText, getWaiverText, listWaiverTexts } from './queries.ts'
import { WaiverTextCreate, WaiverTextOut } from './schema.ts'
import { serializeWaiverText } from './serializer.ts'

const PATH = '/api/waiver-texts'
const TAG = 'Waiver texts'

/**
 * /api/waiver-texts/: the organization's waiver text by version. Admins add a version (the new
 * current text); any staff user reads them, and the desk's waiver screen reads `current/`.
 * Versions are never edited or removed (405), so a signed waiver keeps naming its words.
 */
export const waiverTextRoutes = (deps: Deps) =>
  new Elysia()
    .use(
      new Elysia({ prefix: PATH }).use(authenticated(deps)).get(
        '/current/',
        async ({ urls }) => {
          const row = await getCurrentWaiverText(deps.db)
          if (!row) throw notFound()
          return serializeWaiverText(row, urls)
        },
        {
          ...requires('staff'),
          ...docs({
            tag: TAG,
            summary: 'Read the current waiver text',
            description: whoMay(
              'staff',
              'The newest version: the one the waiver screen shows and a signing must name. 404 before an admin has written one.',
            ),
            ok: { status: 200, schema: named('WaiverText', WaiverTextOut) },
            errors: [404],
          }),
        },
      ),
    )
    .use(
      collectionRoutes(deps, {
        path: PATH,
        tag: TAG,
        noun: 'waiver text',
        read: 'staff',
        write: 'admin',
        descriptions: {
          list: 'Every version, newest (the current one) first.',
          read: 'One version, by its number.',
          create: [
            'Adds a version: its number is the next one, and it is current from now on. A waiver',
            'screen still showing the version before is refused at signing (it names a version no',
            'longer current), so nobody signs words they were not shown. `valid_for_days` is how',
            'long a waiver signed on it lasts (null: never expires); changing only that is a new',
            'version too. Versions are never edited or removed: PUT, PATCH and DELETE are 405.',
          ].join(' '),
        },
        filters: defineFilters({}),
        output: WaiverTextOut,
        list: ({ deps }) => listWaiverTexts(deps.db),
        get: ({ deps }, id) => getWaiverText(deps.db, id),
        serialize: serializeWaiverText,
        create: {
          body: WaiverTextCreate,
          run: ({ deps }, body, actor) => createWaiverText(deps, body, actor.user.id),
        },
      }),
    )

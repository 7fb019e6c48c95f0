import { Elysia, t } from 'elysia'
import { listSnapshots } from '../../core/backup/snapshots.ts'
import type { ListSource } from '../../db/list-source.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, envelopeOf, named } from '../../http/docs.ts'
import { pageParams, paginate } from '../../http/pagination.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { SnapshotOut } from './schema.ts'
import { serializeSnapshot } from './serializer.ts'

/**
 * /api/backups/: the snapshots in serve's backup folder, newest first, for organization admins. A
 * list of files, not of records: read from the folder at each request, paginated as every list is.
 */
export const backupRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/backups' }).use(authenticated(deps)).get(
    '/',
    async ({ request, query, urls }) => {
      // page and page_size are read from the raw strings (readPage), as every list reads them.
      const snapshots = deps.snapshots ? listSnapshots(deps.snapshots.folder) : []
      const source: ListSource<(typeof snapshots)[number]> = {
        count: async () => snapshots.length,
        rows: async (limit, offset) => snapshots.slice(offset, offset + limit),
      }
      return paginate(request, query as Record<string, string | undefined>, urls, source, serializeSnapshot)
    },
    {
      ...requires('admin'),
      ...docs({
        tag: 'Backups',
        summary: 'List the snapshots in the backup folder, newest first',
        description: whoMay(
          'admin',
          [
            "The snapshots in `serve`'s backup folder (`--backup-dir`), read from the folder at each",
            'request, newest first and paginated as every list is, whatever took them (`kind`).',
            'Only whole, verified copies are listed: a copy is checked before it gets its name. Scheduled',
            'ones beyond `--backup-keep` are removed by the schedule; manual and pre-migration ones never.',
          ].join(' '),
        ),
        ok: { status: 200, schema: envelopeOf(named('Snapshot', SnapshotOut)) },
        query: t.Object(pageParams),
        errors: [404],
      }),
    },
  )

import { loadOrganization } from './queries.ts'
import { changeOrganization } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { singletonRoutes } from '../../http/singleton.ts'
import { OrganizationOut, OrganizationReplace } from './schema.ts'
import { serializeOrganization } from './serializer.ts'

/** /api/organization/: the one organization this box serves. Any staff reads; admins change it. */
export const organizationRoutes = (deps: Deps) =>
  singletonRoutes(deps, {
    path: '/api/organization',
    tag: 'Organization',
    summaries: {
      read: 'Read the organization',
      replace: 'Replace the organization settings',
      update: 'Update organization settings',
    },
    descriptions: {
      read: 'The one organization this box serves: its name, time zone, currency, waiver rule and milestones.',
      replace: 'Needs `name` and `time_zone`; every other field keeps its value when left out.',
    },
    read: 'staff',
    write: 'admin',
    output: OrganizationOut,
    get: (deps) => loadOrganization(deps.db),
    serialize: serializeOrganization,
    replace: { body: OrganizationReplace, run: (deps, body) => changeOrganization(deps, body) },
  })

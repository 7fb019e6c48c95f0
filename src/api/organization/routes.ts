import { loadOrganization } from './queries.ts'
import { Elysia } from 'elysia'
import { changeOrganization } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named } from '../../http/docs.ts'
import { requires } from '../../http/permissions.ts'
import { checkBody } from '../../http/validation.ts'
import { OrganizationOut, OrganizationReplace, OrganizationUpdate } from './schema.ts'
import { serializeOrganization } from './serializer.ts'

const tag = 'Organization'

/** /api/organization/: the one organization this box serves. Any staff reads; admins change it. */
export const organizationRoutes = (deps: Deps) => {
  const read = async () => serializeOrganization(await loadOrganization(deps.db))
  const write = async (schema: typeof OrganizationReplace | typeof OrganizationUpdate, body: unknown) => {
    await changeOrganization(deps, checkBody(schema, body))
    return read()
  }
  const ok = { status: 200, schema: named('Organization', OrganizationOut) }
  return new Elysia({ prefix: '/api/organization' })
    .use(authenticated(deps))
    .get('/', read, { ...requires('staff'), ...docs({ tag, summary: 'Read the organization', ok }) })
    .put('/', ({ body }) => write(OrganizationReplace, body), {
      ...requires('admin'),
      ...docs({
        tag,
        summary: 'Replace the organization settings',
        body: named('OrganizationReplace', OrganizationReplace),
        ok,
      }),
    })
    .patch('/', ({ body }) => write(OrganizationUpdate, body), {
      ...requires('admin'),
      ...docs({
        tag,
        summary: 'Update organization settings',
        body: named('PatchedOrganization', OrganizationUpdate),
        ok,
      }),
    })
}

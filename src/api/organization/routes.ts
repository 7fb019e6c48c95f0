import { Elysia } from 'elysia'
import { changeOrganization, loadOrganization } from '../../core/organization.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs } from '../../http/docs.ts'
import { requires } from '../../http/permissions.ts'
import { OrganizationOut, OrganizationReplace, OrganizationUpdate } from './schema.ts'
import { serializeOrganization } from './serializer.ts'

const tag = 'Organization'

/** /api/organization/: the one organization this box serves. Any staff reads; admins change it. */
export const organizationRoutes = (deps: Deps) => {
  const read = async () => serializeOrganization(await loadOrganization(deps))
  const write = async (body: typeof OrganizationUpdate.static) => {
    await changeOrganization(deps, body)
    return read()
  }
  const ok = { status: 200, schema: OrganizationOut }
  return new Elysia({ prefix: '/api/organization' })
    .use(authenticated(deps))
    .get('/', read, { ...requires('staff'), ...docs({ tag, summary: 'Read the organization', ok }) })
    .put('/', ({ body }) => write(body), {
      body: OrganizationReplace,
      ...requires('admin'),
      ...docs({ tag, summary: 'Replace the organization settings', ok, errors: [400] }),
    })
    .patch('/', ({ body }) => write(body), {
      body: OrganizationUpdate,
      ...requires('admin'),
      ...docs({ tag, summary: 'Update organization settings', ok, errors: [400] }),
    })
}

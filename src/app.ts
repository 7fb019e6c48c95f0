import { Elysia } from 'elysia'
import { tokenRoutes, GET_TOKEN_PATH } from './api/auth/routes.ts'
import { checkInRoutes } from './api/check-ins/routes.ts'
import { customerAlertRoutes } from './api/customer-alerts/routes.ts'
import { customerDocumentRoutes, DOCUMENT_UPLOAD_PATHS } from './api/customer-documents/routes.ts'
import { customerRecordsRoutes } from './api/customer-records/routes.ts'
import { customerRoutes } from './api/customers/routes.ts'
import { eventTypeRoutes } from './api/event-types/routes.ts'
import { gymEndpointRoutes } from './api/door/routes.ts'
import { gymRoutes } from './api/gyms/routes.ts'
import { healthRoutes } from './api/health/routes.ts'
import { memberRoutes } from './api/members/routes.ts'
import { myAccountRoutes } from './api/my-account/routes.ts'
import { organizationRoutes } from './api/organization/routes.ts'
import { productRoutes } from './api/products/routes.ts'
import { userRoutes } from './api/users/routes.ts'
import { webhookRoutes } from './api/webhooks/routes.ts'
import type { Deps } from './deps.ts'
import { parseBody } from './http/body.ts'
import { requireStaffUser } from './http/auth.ts'
import { errorHandling } from './http/error-handler.ts'
import { openApiDocs } from './http/openapi.ts'
import { RouteIndex } from './http/route-index.ts'

const FORM_PATHS = new Set([GET_TOKEN_PATH])
/** Paths whose writes may be multipart/form-data: file uploads, as DRF's MultiPartParser takes them. */
const MULTIPART_PATHS = [...DOCUMENT_UPLOAD_PATHS]

/** Paths served without a token: everything else authenticates before anything else is said. */
const isPublic = (path: string) =>
  path.startsWith(GET_TOKEN_PATH.slice(0, -1)) || path.startsWith('/healthz') || path.startsWith('/swagger')

/** The whole API as an Elysia app. It never listens: main.ts does, and tests call `app.handle`. */
export function createApp(deps: Deps) {
  let registered: ReadonlyArray<{ method: string; path: string }> = []
  const routes = new RouteIndex(() => registered)
  const app = new Elysia()
    .use(
      errorHandling({
        log: deps.log,
        routes,
        authenticate: async (request, path) => {
          if (!isPublic(path)) await requireStaffUser(deps, request.headers.get('authorization'))
        },
      }),
    )
    .onParse({ as: 'global' }, ({ request }) => parseBody(request, FORM_PATHS, MULTIPART_PATHS))
    .use(openApiDocs(deps.version))
    .use(healthRoutes(deps))
    .use(tokenRoutes(deps))
    .use(organizationRoutes(deps))
    .use(userRoutes(deps))
    .use(myAccountRoutes(deps))
    .use(gymRoutes(deps))
    .use(eventTypeRoutes(deps))
    .use(customerRoutes(deps))
    .use(customerAlertRoutes(deps))
    .use(customerDocumentRoutes(deps))
    .use(customerRecordsRoutes(deps))
    .use(memberRoutes(deps))
    .use(productRoutes(deps))
    .use(webhookRoutes(deps))
    .use(checkInRoutes(deps))
    .use(gymEndpointRoutes(deps))
  registered = app.routes
  return app
}

export type App = ReturnType<typeof createApp>

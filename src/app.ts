import { Elysia } from 'elysia'
import { apiRoutes, CSV_PATHS, FORM_PATHS, MULTIPART_PATHS } from './api/index.ts'
import type { Deps } from './deps.ts'
import { parseBody } from './http/body.ts'
import { markUndecodable } from './http/filters.ts'
import { requireStaffUser } from './http/auth.ts'
import { browsableApi } from './http/browsable/index.ts'
import { errorHandling } from './http/error-handler.ts'
import { openApiDocs } from './http/openapi.ts'
import { optionsAnswerer } from './http/options-metadata.ts'
import { requestHeadError } from './http/request-limits.ts'
import type { DocumentedRoute } from './http/openapi-document.ts'
import { RouteIndex, type IndexedRoute } from './http/route-index.ts'
import { NO_SNIFF } from './http/security-headers.ts'

/**
 * The whole API as an Elysia app. It never listens: main.ts does, and tests call `app.handle`.
 * `precompile` builds every route's handler now rather than at the route's first request: the
 * server's start takes a little longer so that its first answers (the door's first scan after a
 * power cut) cost no more than later ones; tests, which start many apps, leave it off.
 */
export function createApp(deps: Deps, options: { precompile?: boolean } = {}) {
  let registered: ReadonlyArray<IndexedRoute & DocumentedRoute> = []
  const routes = new RouteIndex(() => registered)
  const app = new Elysia({
    precompile: options.precompile ?? false,
    // Elysia finds where the path starts by looking for the first '/' past a fixed offset into
    // `request.url`; by default that offset assumes a host of at least four characters, so at
    // http://pi/ it read part of the path as the host (every path 404). `request.url` is always
    // `http://` and the host (the server has no TLS; tests build theirs the same way), and a host
    // holds no '/', so the first '/' after the scheme starts the path whatever the host's length.
    handler: { standardHostname: false },
  })
    // On every answer, errors included (Elysia adds these to each response it sends).
    .headers(NO_SNIFF)
    .use(
      errorHandling({
        log: deps.log,
        routes,
        authenticate: async (request, path) => {
          if (!routes.isPublic(path)) await requireStaffUser(deps, request)
        },
        options: optionsAnswerer({
          deps,
          routes,
          handle: (r): Promise<Response> => app.handle(r),
          formPaths: FORM_PATHS,
          multipartPaths: MULTIPART_PATHS,
        }),
      }),
    )
    .onRequest(({ request }) => {
      // Before routing: an over-long URL or header gets its JSON answer whatever the path.
      const error = requestHeadError(request)
      if (error) throw error
    })
    .onTransform({ as: 'global' }, ({ request, query }) => markUndecodable(request.url, query))
    .onParse({ as: 'global' }, ({ request }) => parseBody(request, FORM_PATHS, MULTIPART_PATHS, CSV_PATHS))
    // A browser's GET on /api/ gets the page around the API's JSON answer (asked of the app itself).
    .use(browsableApi({ deps, routes, handle: (request): Promise<Response> => app.handle(request) }))
    .use(openApiDocs(deps.version, () => registered))
    .use(apiRoutes(deps))
  registered = app.routes
  return app
}

export type App = ReturnType<typeof createApp>

import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
import { sharedResponses } from './docs.ts'
import { finishDocument, type DocumentedRoute } from './openapi-document.ts'

const ASSETS = '/swagger/assets'
const SPEC_PATH = '/swagger/json'

/**
 * The page fetches the document from its absolute path: the plugin's default is relative
 * ("swagger/json"), which from /swagger/ (with the final slash every other path has) resolves to
 * /swagger/swagger/json. The plugin's options type leaves `url` out, but its page takes it.
 */
const specUrl: object = { url: SPEC_PATH }

/**
 * The API's docs page at /swagger and its OpenAPI JSON at /swagger/json. Swagger UI's script and
 * stylesheet are embedded in the executable and served from here: the plugin's default loads them
 * from a CDN, which leaves the page blank on a gym LAN without internet.
 */
export function openApiDocs(version: string, routes: () => readonly DocumentedRoute[]) {
  const docsApp = new Elysia()
  const finished = new WeakMap<object, unknown>()
  return (
    docsApp
      .get(
        `${ASSETS}/swagger-ui-bundle.js`,
        () => new Response(Bun.file(swaggerBundle), { headers: { 'content-type': 'text/javascript' } }),
        {
          detail: { hide: true },
        },
      )
      .get(
        `${ASSETS}/swagger-ui.css`,
        () => new Response(Bun.file(swaggerCss), { headers: { 'content-type': 'text/css' } }),
        {
          detail: { hide: true },
        },
      )
      // The plugin generates the document from the route table (and keeps it while the table stays
      // the same size); openapi-document.ts finishes it, once per generated document.
      .onAfterHandle(({ path, response }) => {
        if (path.replace(/\/$/, '') !== SPEC_PATH || response === null || typeof response !== 'object') return
        let document = finished.get(response)
        if (document === undefined) {
          document = finishDocument(response, routes())
          finished.set(response, document)
        }
        return document
      })
      .use(
        openapi({
          path: '/swagger',
          specPath: SPEC_PATH,
          provider: 'swagger-ui',
          swagger: {
            cdn: `${ASSETS}/swagger-ui-bundle.js`,
            theme: `${ASSETS}/swagger-ui.css`,
            autoDarkMode: false,
            ...specUrl,
          },
          exclude: { paths: [/^\/swagger/] },
          documentation: {
            info: {
              title: 'Belay API',
              version,
              description:
                'The climbing-gym appliance API. Authenticate with `Authorization: Token <key>` (get a key from POST /api/get-token/). Errors are Django REST Framework bodies. A method a path does not list answers 405 (after 401 when the path needs a token).',
            },
            // The appliance serves its own document: requests go to wherever it was fetched from.
            servers: [{ url: '/' }],
            components: {
              securitySchemes: {
                Token: {
                  type: 'apiKey',
                  in: 'header',
                  name: 'Authorization',
                  description: 'The word "Token", a space, then the key from /api/get-token/',
                },
              },
              // Elysia's types want a schema object where these hold TypeBox schemas (JSON alike).
              responses: sharedResponses,
            },
          },
        }),
      )
  )
}

import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
import { sharedResponses } from './docs.ts'
import { API_CONVENTIONS, API_SUMMARY } from './openapi-conventions.ts'
import { finishDocument, type DocumentedRoute } from './openapi-document.ts'
import { NOT_A_PAGE, pageSecurityHeaders } from './security-headers.ts'

const ASSETS = '/swagger/assets'
const PAGE_PATH = '/swagger'
const SPEC_PATH = '/swagger/json'

/**
 * Starts Swagger UI on the document at its absolute path: a relative one would resolve, from
 * /swagger/ (with the final slash every other path has), to /swagger/swagger/json.
 */
const START_SCRIPT = `window.onload = () => {
  window.ui = SwaggerUIBundle(${JSON.stringify({ dom_id: '#swagger-ui', url: SPEC_PATH })});
};`

/**
 * The docs page, written here rather than by the plugin so that it is one fixed text: its one
 * inline script is allowed by hash, and nothing but the box's own files runs in it. The empty icon
 * keeps browsers from asking for /favicon.ico.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Belay API</title>
<meta name="description" content="${API_SUMMARY.replace(/[<>"&]/g, (c) => `&#${c.charCodeAt(0)};`)}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script>${START_SCRIPT}</script>
</body>
</html>
`

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  ...pageSecurityHeaders({ inlineScripts: [START_SCRIPT] }),
}

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
      .get(PAGE_PATH, () => new Response(PAGE, { headers: PAGE_HEADERS }), { detail: { hide: true } })
      // The plugin generates the document from the route table (and keeps it while the table stays
      // the same size); openapi-document.ts finishes it, once per generated document.
      .onAfterHandle(({ path, response, set }) => {
        if (path.replace(/\/$/, '') !== SPEC_PATH || response === null || typeof response !== 'object') return
        Object.assign(set.headers, NOT_A_PAGE)
        let document = finished.get(response)
        if (document === undefined) {
          document = finishDocument(response, routes())
          finished.set(response, document)
        }
        return document
      })
      .use(
        openapi({
          specPath: SPEC_PATH,
          // The page is served above.
          provider: null,
          exclude: { paths: [/^\/swagger/] },
          documentation: {
            info: {
              title: 'Belay API',
              version,
              description: API_CONVENTIONS,
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
                Session: {
                  type: 'apiKey',
                  in: 'cookie',
                  name: 'sessionid',
                  description:
                    'The cookie POST /api/login/ sets; unsafe requests also send X-CSRFToken (the csrftoken cookie)',
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

import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }

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
export function openApiDocs(version: string) {
  return new Elysia()
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
              'The climbing-gym appliance API. Authenticate with `Authorization: Token <key>` (get a key from POST /api/get-token/). Errors are Django REST Framework bodies.',
          },
          components: {
            securitySchemes: {
              Token: {
                type: 'apiKey',
                in: 'header',
                name: 'Authorization',
                description: 'The word "Token", a space, then the key from /api/get-token/',
              },
            },
          },
        },
      }),
    )
}

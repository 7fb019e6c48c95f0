import { Elysia } from 'elysia'
import { notFound } from '../../http/errors.ts'
import { NO_SNIFF, pageSecurityHeaders } from '../../http/security-headers.ts'
import { bundleDeskPage } from './page-bundle.ts' with { type: 'macro' }

/** Where the page's script and styles are served; each name carries its content's hash. */
const ASSETS = '/assets'

const bundle = bundleDeskPage()

/**
 * The page itself is a shell that loads the bundle: everything it shows comes from the API. The
 * empty icon keeps browsers from asking for /favicon.ico.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Belay front desk</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS}/${bundle.styles.name}">
<script type="module" src="${ASSETS}/${bundle.script.name}"></script>
</head>
<body><div id="app"></div></body>
</html>
`

interface Served {
  body: string
  gzipped: Uint8Array
  headers: Record<string, string>
}

/** Compressed once at start: the desk reloads the page often, and it never changes while serving. */
const served = (body: string, headers: Record<string, string>): Served => ({
  body,
  gzipped: Bun.gzipSync(body),
  headers: { ...NO_SNIFF, vary: 'accept-encoding', ...headers },
})

/** An asset's name changes with its content, so a browser may keep it for good. */
const FOREVER = 'public, max-age=31536000, immutable'

const assets = new Map<string, Served>([
  [
    bundle.script.name,
    served(bundle.script.text, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': FOREVER,
    }),
  ],
  [
    bundle.styles.name,
    served(bundle.styles.text, { 'content-type': 'text/css; charset=utf-8', 'cache-control': FOREVER }),
  ],
])

const page = served(PAGE, {
  'content-type': 'text/html; charset=utf-8',
  // Asked again on every load, so a new executable's page (naming its new assets) shows at once.
  'cache-control': 'no-cache',
  // Only the appliance's own script, styles and API: nothing from elsewhere runs in the desk.
  ...pageSecurityHeaders(),
})

function respond(request: Request, file: Served): Response {
  const gzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')
  return gzip
    ? new Response(file.gzipped, { headers: { ...file.headers, 'content-encoding': 'gzip' } })
    : new Response(file.body, { headers: file.headers })
}

/**
 * The front desk's page at / and its assets, served without a token (the page logs in through the
 * API). Left out of the API's document, as the docs page is: they are the browser's, not the API's.
 */
export const deskRoutes = () =>
  new Elysia()
    .get('/', ({ request }) => respond(request, page), { detail: { hide: true } })
    .get(
      `${ASSETS}/:name`,
      ({ request, params }) => {
        const asset = assets.get(params.name)
        if (asset === undefined) throw notFound()
        return respond(request, asset)
      },
      { detail: { hide: true } },
    )

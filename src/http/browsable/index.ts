import { Elysia, t } from 'elysia'
import type { Deps } from '../../deps.ts'
import { authenticateRequest } from '../auth.ts'
import { docs, named } from '../docs.ts'
import { ApiError } from '../errors.ts'
import { allows, requiredPermission } from '../permissions.ts'
import { noteRequestUser } from '../request-log.ts'
import { allowList, type RouteIndex } from '../route-index.ts'
import { NO_SNIFF, pageSecurityHeaders } from '../security-headers.ts'
import { Urls } from '../urls.ts'
import { assetRoutes, PAGE_ASSETS } from './assets.ts'
import { editorText, filterFields, nameOf, operationsAt } from './describe.ts'
import { renderingOf } from './negotiation.ts'
import { renderPage, statusLine, type PageContent } from './page.ts'

/**
 * The browsable API, as Django REST Framework's: a GET (or HEAD) on any /api/ path from a browser,
 * or with `?format=api`, is answered with an HTML page around the very JSON a client would get
 * (negotiation.ts decides). The page is made from that answer, after it: the request goes through
 * the API as a JSON request (`handle`), so the page shows exactly what the API says, errors
 * included, with the same authentication and permissions. JSON clients pass by after two string
 * searches. Also here: `GET /api/`, the root listing every collection.
 */

type Json = any
type Handle = (request: Request) => Response | Promise<Response>

const ROOT_PATH = '/api/'

/** The request's path as sent (`request.url` is always `http://host/path?query`; see app.ts). */
function splitUrl(url: string): { origin: string; path: string; query: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return { origin: url, path: '/', query: '' }
  const q = url.indexOf('?', start)
  return {
    origin: url.slice(0, start),
    path: url.slice(start, q < 0 ? undefined : q),
    query: q < 0 ? '' : url.slice(q + 1),
  }
}

/** The same request as the API's JSON client would send it: `Accept: application/json`, no `format`. */
function asJsonRequest(request: Request, origin: string, path: string, query: string): Request {
  const kept = query.split('&').filter((pair) => pair !== '' && !pair.startsWith('format='))
  const headers = new Headers(request.headers)
  headers.set('accept', 'application/json')
  return new Request(`${origin}${path}${kept.length > 0 ? `?${kept.join('&')}` : ''}`, {
    method: 'GET',
    headers,
  })
}

/** The answer's headers the page passes on (a client, and the response check, still find them), as shown. */
const PASSED_ON: Record<string, string> = {
  'www-authenticate': 'WWW-Authenticate',
  'retry-after': 'Retry-After',
  location: 'Location',
}

/** Each segment of the path, a link where GET serves its prefix. */
function crumbsOf(routes: RouteIndex, path: string): PageContent['crumbs'] {
  const segments = path.split('/').filter((s) => s !== '')
  return segments.map((segment, i) => {
    const prefix = `/${segments.slice(0, i + 1).join('/')}/`
    const label = i === 0 ? 'API' : segment
    const isHere = i === segments.length - 1
    return { label, href: !isHere && routes.allowedMethods(prefix).includes('GET') ? prefix : null }
  })
}

export interface BrowsableOptions {
  deps: Deps
  routes: RouteIndex
  /** The whole app's handler: the page asks the API itself, as a JSON client. */
  handle: Handle
}

export function browsableApi({ deps, routes, handle }: BrowsableOptions) {
  let documentLoaded: Promise<Json> | undefined
  /** The API's OpenAPI document as /swagger/json serves it, fetched once. */
  const openApiDocument = (origin: string) =>
    (documentLoaded ??= Promise.resolve(handle(new Request(`${origin}/swagger/json`)))
      .then((r) => r.json())
      .catch((error: unknown) => {
        // Asked again by the next page rather than failing every page from now on.
        documentLoaded = undefined
        throw error
      }))

  async function page(request: Request, origin: string, path: string, query: string): Promise<Response> {
    const answer = await handle(asJsonRequest(request, origin, path, query))
    const contentType = answer.headers.get('content-type') ?? ''
    // A file (a photo, a PDF) or the door's plain text: the browser shows it as it is.
    if (!contentType.startsWith('application/json')) return answer
    const text = await answer.text()
    let body: unknown = text
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      // Shown as the text it is.
    }
    const user = answer.status === 401 ? null : await signedIn(request)
    // The request's log line names its user, as the JSON request's would.
    if (user !== null) noteRequestUser(request, user.id)
    const document = await openApiDocument(origin)
    const template = routes.template(path)
    const operations = operationsAt(document, template)
    const named = nameOf(operations) ?? {
      name: statusLine(answer.status).replace(/^HTTP \d+ /, ''),
      description: '',
    }
    const methods = allowList(routes.allowedMethods(path))
    const may = (method: string) => {
      const operation = operations[method.toLowerCase()]
      if (user === null || !methods.includes(method) || operation === undefined) return false
      const route = routes.routes().find((r) => r.method.toUpperCase() === method && r.path === template)
      return allows(user, requiredPermission(route?.hooks as { transform?: unknown }) ?? 'staff')
    }
    const writeMethods = ['POST', 'PUT', 'PATCH'].filter(may)
    const record = answer.status === 200 ? body : undefined
    const editing = operations.put ?? operations.patch
    const headers: Array<[string, string]> = [
      ...(methods.length > 0 ? [['Allow', methods.join(', ')] as [string, string]] : []),
      ['Content-Type', contentType],
      ['Vary', 'Accept'],
      ...Object.entries(PASSED_ON).flatMap(([name, shown]): Array<[string, string]> => {
        const value = answer.headers.get(name)
        return value === null ? [] : [[shown, value]]
      }),
    ]
    const html = renderPage({
      method: request.method,
      target: `${path}${query === '' ? '' : `?${query}`}`,
      path,
      query: new URLSearchParams(query),
      status: answer.status,
      headers,
      body,
      name: named.name,
      description: named.description,
      origins: [...new Set([origin, Urls.forRequest(request, deps.config.publicUrl).origin])],
      user: user?.email ?? null,
      crumbs: crumbsOf(routes, path),
      filters: answer.status === 401 || !operations.get ? [] : filterFields(document, operations.get),
      writes:
        writeMethods.length === 0
          ? null
          : {
              methods: writeMethods,
              text:
                (writeMethods.includes('PUT') || writeMethods.includes('PATCH')) && editing
                  ? editorText(document, editing, record)
                  : editorText(document, operations.post, null),
            },
      mayDelete: may('DELETE'),
      assets: PAGE_ASSETS,
    })
    const pageHeaders: Record<string, string> = {
      ...NO_SNIFF,
      'content-type': 'text/html; charset=utf-8',
      vary: 'Accept',
      ...pageSecurityHeaders(),
    }
    for (const name of Object.keys(PASSED_ON)) {
      const value = answer.headers.get(name)
      if (value !== null) pageHeaders[name] = value
    }
    return new Response(request.method === 'HEAD' ? null : html, {
      status: answer.status,
      headers: pageHeaders,
    })
  }

  /** The staff user the page is for, or null when the request authenticates no one. */
  async function signedIn(request: Request) {
    try {
      return (await authenticateRequest(deps, request)).user
    } catch (error) {
      if (error instanceof ApiError) return null
      throw error
    }
  }

  return new Elysia({ name: 'browsable-api' })
    .onRequest(async ({ request }) => {
      const method = request.method
      if (method !== 'GET' && method !== 'HEAD') return
      const rendering = renderingOf(request)
      if (rendering === null) return
      const { origin, path, query } = splitUrl(request.url)
      if (!path.startsWith('/api/') && path !== '/api') return
      if (rendering === 'page') return page(request, origin, path, query)
      // The client named text/html but prefers JSON: its answer says it was chosen by Accept.
      const answer = await handle(asJsonRequest(request, origin, path, query))
      answer.headers.set('vary', 'Accept')
      return answer
    })
    .use(assetRoutes())
    .get(
      ROOT_PATH,
      ({ request }) => {
        const urls = Urls.forRequest(request, deps.config.publicUrl)
        return Object.fromEntries(collectionsOf(routes).map((name) => [name, urls.abs(`/api/${name}`)]))
      },
      {
        ...docs({
          tag: 'API root',
          summary: 'List every collection',
          description: [
            "Public. The API root, as DRF's: each top-level collection (and single record, such as",
            '`organization`) by name, with its absolute URL. A browser opening any `/api/` path gets',
            'the browsable page instead of JSON (see "Browsable API" above).',
          ].join(' '),
          public: true,
          ok: {
            status: 200,
            schema: named(
              'ApiRoot',
              t.Record(t.String(), t.String({ format: 'uri' }), {
                description: "Each collection's name and its absolute URL",
              }),
            ),
          },
        }),
      },
    )
}

/** The top-level paths served with GET (`/api/customers/`), by name, in route-table order. */
function collectionsOf(routes: RouteIndex): string[] {
  const names = routes
    .routes()
    .filter((r) => r.method.toUpperCase() === 'GET')
    .map((r) => /^\/api\/([^/:]+)\/?$/.exec(r.path)?.[1])
    .filter((name): name is string => name !== undefined)
  return [...new Set(names)]
}

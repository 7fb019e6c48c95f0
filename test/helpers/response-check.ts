import { FormatRegistry } from '@sinclair/typebox'
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { renderingOf } from '../../src/http/browsable/negotiation.ts'
import { isFoldedSegment } from '../../src/http/raw-path.ts'

/*
 * Every response a test receives is checked against the API's own OpenAPI document (served at
 * /swagger/json), so that the document cannot drift from what is served: the status must be one
 * the operation documents, the media type one it gives for that status, a JSON or text body must
 * match the schema, and a documented required header must be there. A mismatch throws, which fails
 * the test that made the request. Objects are held closed here (no field the document does not
 * name), though the document itself leaves them open for clients.
 *
 * Only the docs page and its assets (hidden from the document) are not checked. A path the document
 * does not have must answer 404; a method a documented path does not offer, 405 (or 401 first, or
 * 404 on a path the server refuses before routing); either may also get the 414 and 431 of the
 * limits checked before routing.
 *
 * The browsable API, as the document's conventions say once for every operation: a GET or HEAD on
 * an /api/ path that asks for the page (`?format=api`, or an Accept preferring text/html) may be
 * answered `text/html` instead of a documented JSON body, with the same status and headers. Its
 * body must then be an HTML page; a page nobody asked for is a mismatch. A HEAD is checked as its
 * GET, with no body.
 */

type Json = any
type Handle = (request: Request) => Promise<Response>

/** What this needs of a registered route: Elysia's own route table entries have it. */
interface Route {
  method: string
  path: string
  hooks?: { detail?: { hide?: boolean } }
}

export interface CheckedApp {
  /** The app's own handler, unchecked (the document is fetched with it). */
  handle: Handle
  routes: readonly Route[]
}

const ORIGIN = 'http://localhost'

let shared: Promise<DocumentCheck> | undefined

/** Throws, naming the route, status and first errors, when `response` does not match the document. */
export async function checkResponse(app: CheckedApp, request: Request, response: Response): Promise<void> {
  // One document for every test app: it is generated from the route table, the same in each.
  shared ??= fetchDocument(app.handle).then((doc) => new DocumentCheck(doc))
  const check = await shared
  const url = new URL(request.url)
  if (isHidden(app.routes, url.pathname)) return
  const head = request.method === 'HEAD'
  const page =
    (request.method === 'GET' || head) &&
    url.pathname.startsWith('/api/') &&
    renderingOf(request) === 'page' &&
    mediaTypeOf(response) === 'text/html'
  await check.check(head ? 'GET' : request.method, url.pathname, response, { page, head })
}

/** How the request asked: for the browsable page, and as a HEAD (a GET without its body). */
interface Asked {
  page: boolean
  head: boolean
}

async function fetchDocument(handle: Handle): Promise<Json> {
  const response = await handle(new Request(`${ORIGIN}/swagger/json`))
  if (response.status !== 200) throw new Error(`GET /swagger/json answered ${response.status}`)
  return response.json()
}

const elysiaPattern = (path: string) =>
  new RegExp(
    `^${withSlash(path)
      .replace(/:[^/]+/g, '[^/]+')
      .replace(/\*/g, '.*')}$`,
  )

const withSlash = (path: string) => (path.endsWith('/') ? path : `${path}/`)

/** The docs page and its assets: routes the document leaves out on purpose. */
function isHidden(routes: readonly Route[], path: string): boolean {
  return routes.some((r) => r.hooks?.detail?.hide === true && elysiaPattern(r.path).test(withSlash(path)))
}

/** A JSON pointer into the document, as an Ajv reference. */
const pointer = (...segments: string[]) =>
  `openapi.json#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`

class DocumentCheck {
  private readonly ajv: Ajv2020
  private readonly validators = new Map<string, ValidateFunction>()
  private readonly templates: Array<{ template: string; pattern: RegExp; params: number }>

  constructor(private readonly doc: Json) {
    // Not strict: OpenAPI's own keywords and the x- extensions sit beside JSON Schema's.
    this.ajv = new Ajv2020({ allErrors: true, strict: false })
    addFormats(this.ajv)
    for (const format of formatsIn(doc)) {
      if (this.ajv.formats[format] !== undefined) continue
      const own = FormatRegistry.Get(format)
      if (own === undefined) throw new Error(`The document uses format "${format}", which nothing defines`)
      this.ajv.addFormat(format, own)
    }
    this.ajv.addSchema(closeObjects(structuredClone(doc)), 'openapi.json')
    this.templates = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${withSlash(template).replace(/\{[^}]+\}/g, '[^/]+')}$`),
      params: (template.match(/\{/g) ?? []).length,
    }))
  }

  async check(method: string, path: string, response: Response, asked: Asked) {
    const request = `${asked.head ? 'HEAD' : method} ${path}`
    const fail = (what: string): never => {
      throw new Error(`OpenAPI check: ${request} answered ${response.status}; ${what}`)
    }
    // The most specific template: the one with the fewest parameters.
    const found = this.templates
      .filter((t) => t.pattern.test(withSlash(path)))
      .sort((a, b) => a.params - b.params)[0]
    // The URL and header limits are checked before routing: a path the document lacks, or a method
    // its path does not offer, gets them as every operation does.
    const beforeRouting = BEFORE_ROUTING[response.status]
    if (
      beforeRouting &&
      (found === undefined || this.doc.paths[found.template][method.toLowerCase()] === undefined)
    ) {
      return this.checkAnswer(request, response, asked, this.doc.components.responses[beforeRouting], [
        'components',
        'responses',
        beforeRouting,
      ])
    }
    if (found === undefined) {
      if (response.status !== 404) fail('the document has no such path, so it must be 404')
      return this.checkAnswer(request, response, asked, this.doc.components.responses.NotFound, [
        'components',
        'responses',
        'NotFound',
      ])
    }
    const operation = this.doc.paths[found.template][method.toLowerCase()]
    const where = `${method} ${found.template}`
    if (operation === undefined) {
      // The error handler answers a method the path does not offer: 405, after 401 on a path that
      // needs a token; the server's raw-path check refuses some paths before routing, 404.
      if (response.status === 401) {
        return this.checkAnswer(request, response, asked, this.doc.components.responses.Unauthenticated, [
          'components',
          'responses',
          'Unauthenticated',
        ])
      }
      if (response.status === 404 && refusedBeforeRouting(path)) {
        return this.checkAnswer(request, response, asked, this.doc.components.responses.NotFound, [
          'components',
          'responses',
          'NotFound',
        ])
      }
      if (response.status !== 405) fail(`${where} is not in the document, so it must be 405 (or 401)`)
      if (asked.page) return this.checkPage(request, response, asked)
      const mediaType = mediaTypeOf(response)
      if (mediaType !== 'application/json') fail(`its content type is "${mediaType}", not application/json`)
      return this.checkBody(request, response, ['components', 'schemas', 'ErrorDetail'], mediaType)
    }
    const documented = operation.responses?.[String(response.status)]
    if (documented === undefined) {
      fail(`${where} documents ${Object.keys(operation.responses ?? {}).join(', ')}, not ${response.status}`)
    }
    if (documented.$ref !== undefined) {
      const name = String(documented.$ref).replace('#/components/responses/', '')
      const shared = this.doc.components.responses[name]
      if (shared === undefined) fail(`${where} refers to ${documented.$ref}, which the document lacks`)
      return this.checkAnswer(request, response, asked, shared, ['components', 'responses', name])
    }
    return this.checkAnswer(request, response, asked, documented, [
      'paths',
      found.template,
      method.toLowerCase(),
      'responses',
      String(response.status),
    ])
  }

  private async checkAnswer(
    request: string,
    response: Response,
    asked: Asked,
    documented: Json,
    at: string[],
  ) {
    const fail = (what: string): never => {
      throw new Error(`OpenAPI check: ${request} answered ${response.status}; ${what}`)
    }
    for (const [name, header] of Object.entries(documented.headers ?? {}) as [string, Json][]) {
      if (header.required && response.headers.get(name) === null) fail(`the ${name} header is missing`)
    }
    if (asked.page) {
      if (documented.content?.['application/json'] === undefined)
        fail('a page stands in for a JSON answer, and the document gives none for this status')
      return this.checkPage(request, response, asked)
    }
    const mediaType = mediaTypeOf(response)
    if (documented.content === undefined) {
      const text = await response.text()
      if (text !== '') fail(`the document gives no body, but it has one: ${text.slice(0, 200)}`)
      return
    }
    const media = documented.content[mediaType]
    if (media === undefined) {
      fail(
        `its content type is "${mediaType}", the document gives ${Object.keys(documented.content).join(', ')}`,
      )
    }
    if (asked.head) {
      if ((await response.text()) !== '') fail('a HEAD answer has a body')
      return
    }
    if (media.schema === undefined || media.schema.format === 'binary') return
    return this.checkBody(request, response, [...at, 'content', mediaType, 'schema'], mediaType)
  }

  /** The browsable page standing in for a JSON answer: an HTML document (nothing for a HEAD). */
  private async checkPage(request: string, response: Response, asked: Asked) {
    const text = await response.text()
    const isPage = asked.head
      ? text === ''
      : text.startsWith('<!doctype html>') && text.trimEnd().endsWith('</html>')
    if (!isPage)
      throw new Error(
        `OpenAPI check: ${request} answered ${response.status} with text/html that is not the browsable page: ${text.slice(0, 120)}`,
      )
  }

  private async checkBody(request: string, response: Response, at: string[], mediaType: string) {
    const text = await response.text()
    let body: unknown = text
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      try {
        body = JSON.parse(text)
      } catch {
        throw new Error(`OpenAPI check: ${request} answered ${response.status} with JSON that does not parse`)
      }
    }
    const ref = pointer(...at)
    let validate = this.validators.get(ref)
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: ref })
      this.validators.set(ref, validate)
    }
    if (validate(body)) return
    throw new Error(
      `OpenAPI check: ${request} answered ${response.status} with a body that does not match ` +
        `${decodeURIComponent(ref)}:\n${describe(validate.errors ?? [], body)}`,
    )
  }
}

/**
 * A path the executable's raw-path check (src/http/raw-path.ts) refuses before routing, 404 whatever
 * the method: a segment that decodes to a slash or a backslash (`..%2f`). Dot segments never get
 * here: the URL parser has already resolved them.
 */
function refusedBeforeRouting(path: string): boolean {
  return path.split('/').some((segment) => {
    try {
      return isFoldedSegment(decodeURIComponent(segment))
    } catch {
      return false
    }
  })
}

/** The shared answers of the checks made before routing, by status. */
const BEFORE_ROUTING: Record<number, string> = { 414: 'UriTooLong', 431: 'HeaderFieldsTooLarge' }

const mediaTypeOf = (response: Response) =>
  (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()

/** The first errors, each with where in the body and the value found there. */
function describe(errors: ErrorObject[], body: unknown): string {
  const valueAt = (path: string) =>
    path
      .split('/')
      .slice(1)
      .reduce<any>((v, key) => v?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], body)
  return errors
    .slice(0, 8)
    .map((e) => {
      const value = JSON.stringify(valueAt(e.instancePath)) ?? 'undefined'
      const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : ''
      return `  ${e.instancePath || '(body)'} ${e.message}${extra}; found ${value.slice(0, 120)}`
    })
    .join('\n')
}

/** Every `format` the document uses. */
function formatsIn(doc: Json): Set<string> {
  const formats = new Set<string>()
  const walk = (value: Json) => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (value !== null && typeof value === 'object') {
      if (typeof value.format === 'string' && typeof value.type === 'string') formats.add(value.format)
      Object.values(value).forEach(walk)
    }
  }
  walk(doc)
  return formats
}

/** Object schemas with named properties and no word on others: others refused, for the check. */
function closeObjects(value: Json): Json {
  if (Array.isArray(value)) value.forEach(closeObjects)
  else if (value !== null && typeof value === 'object') {
    if (
      value.type === 'object' &&
      value.properties !== undefined &&
      value.additionalProperties === undefined
    ) {
      value.additionalProperties = false
    }
    Object.values(value).forEach(closeObjects)
  }
  return value
}

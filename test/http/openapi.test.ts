import SwaggerParser from '@apidevtools/swagger-parser'
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core'
import * as Parsers from '@stoplight/spectral-parsers'
import { oas } from '@stoplight/spectral-rulesets'
import { beforeAll, describe, expect, test } from 'bun:test'
import { ORIGIN } from '../helpers/app.ts'
import { checkResponse } from '../helpers/response-check.ts'
import { useTestApp } from '../helpers/seeded.ts'

const PUBLIC_PATHS = new Set(['/healthz', '/api/get-token/', '/api/login/', '/api/'])

const t = useTestApp({ once: true })
let doc: any

beforeAll(async () => {
  const res = await t.request('GET', '/swagger/json')
  expect(res.status).toBe(200)
  doc = res.body
})

/** A named schema (`{"$ref": "#/components/schemas/Gym"}`) as the document defines it. */
const resolve = (schema: any): any =>
  schema?.$ref === undefined
    ? schema
    : doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]

/** Elysia's `/api/gyms/:id/` as OpenAPI writes it: `/api/gyms/{id}/`. */
const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

/**
 * Every route a client may call: the API, the health check and the metrics (not the docs pages
 * themselves).
 */
const apiRoutes = () =>
  t.app.routes
    .filter((r) => r.path.startsWith('/api/') || r.path === '/healthz' || r.path === '/metrics')
    .map((r) => ({ method: r.method.toLowerCase(), path: toOpenApiPath(r.path) }))

describe('OpenAPI document', () => {
  test('is served as JSON without a token', () => {
    expect(typeof doc).toBe('object')
    expect(doc.openapi).toMatch(/^3\./)
    expect(doc.info).toMatchObject({ title: 'Belay API', version: 'test' })
  })

  test('is a valid OpenAPI 3 document', async () => {
    // The validator dereferences in place: give it a copy.
    let error: unknown = null
    try {
      await SwaggerParser.validate(structuredClone(doc))
    } catch (e) {
      error = e
    }
    expect(error === null ? null : String((error as Error).message)).toBeNull()
  })

  test('the validator rejects a broken document (so the check above means something)', async () => {
    const broken = structuredClone(doc)
    broken.paths['/healthz'].get.not_an_openapi_field = true
    await expect(SwaggerParser.validate(broken)).rejects.toThrow('Swagger schema validation failed')
  })

  test('every API route appears with its method', () => {
    const routes = apiRoutes()
    expect(routes.length).toBeGreaterThan(20)
    const missing = routes.filter((r) => doc.paths?.[r.path]?.[r.method] === undefined)
    expect(missing).toEqual([])
  })

  test('documents no operation that the app does not serve', () => {
    const served = new Set(apiRoutes().map((r) => `${r.method} ${r.path}`))
    // OPTIONS is answered on every /api/ path by the error handler's one hook, not by a route.
    for (const { path } of apiRoutes()) if (path.startsWith('/api/')) served.add(`options ${path}`)
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`),
    )
    expect(documented.filter((op) => !served.has(op))).toEqual([])
  })

  test('the Token security scheme is an apiKey in the Authorization header', () => {
    expect(doc.components.securitySchemes.Token).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    })
  })

  test('protected operations require Token; get-token and healthz require nothing', () => {
    for (const { method, path } of apiRoutes()) {
      const operation = doc.paths[path][method]
      if (PUBLIC_PATHS.has(path)) {
        expect({ path, method, security: operation.security ?? [] }).toEqual({ path, method, security: [] })
      } else {
        expect({ path, method, security: operation.security }).toEqual({
          path,
          method,
          security: [{ Token: [] }, { Session: [] }],
        })
      }
    }
    expect(doc.security ?? []).toEqual([])
  })

  test('POST /api/gyms/ documents its JSON request body schema', () => {
    const request = resolve(doc.paths['/api/gyms/'].post.requestBody?.content?.['application/json']?.schema)
    expect(request).toBeDefined()
    expect(request.type).toBe('object')
    expect([...request.required].sort()).toEqual(['name', 'time_zone'])
    expect(Object.keys(request.properties).sort()).toEqual([
      'capacity',
      'combine_same_day_check_ins',
      'hide_setter',
      'name',
      'scheduler_first_day_of_week',
      'scheduler_landing_page_text',
      'scheduler_url_path',
      'time_zone',
    ])
  })

  test('POST /api/gyms/ documents its 201 response schema', () => {
    const created = resolve(doc.paths['/api/gyms/'].post.responses['201'].content['application/json'].schema)
    expect(created.type).toBe('object')
    expect(Object.keys(created.properties).sort()).toEqual([
      'capacity',
      'climbs_url',
      'combine_same_day_check_ins',
      'created_at',
      'grades_url',
      'hide_setter',
      'id',
      'name',
      'scheduler_first_day_of_week',
      'scheduler_landing_page_text',
      'scheduler_url_path',
      'sections_url',
      'time_zone',
      'updated_at',
      'url',
    ])
  })

  test("the door's own 404s also document the generic JSON 404 the server gives a dot segment or an encoded slash in the barcode", () => {
    const notFoundOf = (path: string, method: string) => doc.paths[path][method].responses['404'].content
    const detail = { $ref: '#/components/schemas/ErrorDetail' }
    expect(
      notFoundOf('/api/gym-endpoints/open-door-check-in/{barcode}/', 'post')['application/json'],
    ).toEqual({
      schema: detail,
    })
    expect(
      notFoundOf('/api/gym-endpoints/barcode-check-in/{barcode}/', 'post')['application/json'].schema.anyOf,
    ).toEqual([{ $ref: '#/components/schemas/BarcodeCheckInNotFound' }, detail])
    expect(
      notFoundOf('/api/look-up-member-by-barcode/{barcode}/', 'get')['application/json'].schema.anyOf,
    ).toEqual([{ $ref: '#/components/schemas/LookUpNotFound' }, detail])
  })

  test('every POST, PUT and PATCH documents a request body schema: JSON, or a file upload', () => {
    const withoutSchema = apiRoutes()
      .filter((r) => ['post', 'put', 'patch'].includes(r.method))
      .filter((r) => bodySchema(doc.paths[r.path][r.method].requestBody) === undefined)
      .map((r) => `${r.method.toUpperCase()} ${r.path}`)
    expect(withoutSchema).toEqual([])
  })
})

/** A request body's schema: its JSON one, or an upload's that takes only multipart/form-data. */
const bodySchema = (body: any) =>
  (body?.content?.['application/json'] ?? body?.content?.['multipart/form-data'])?.schema

/** Every operation of the document, with its path and method. */
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  )

/** Every schema object in the document, with where it is. */
function schemasIn(value: any, at = '#', found: Array<{ at: string; schema: any }> = []) {
  if (value === null || typeof value !== 'object') return found
  if (typeof value.type === 'string' || value.anyOf || value.$ref) found.push({ at, schema: value })
  for (const [key, child] of Object.entries(value)) schemasIn(child, `${at}/${key}`, found)
  return found
}

/** An operation's answer for a status, through components.responses when it refers there. */
const answer = (operation: any, status: number) => {
  const response = operation.responses[String(status)]
  return response?.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response
}

describe('OpenAPI document, told truly', () => {
  /** Spectral's recommended rules that this API departs from on purpose, and why. */
  const departures = {
    'path-keys-no-trailing-slash': 'every path ends with a slash, as in DRF (and is served without it too)',
    'info-contact': 'an appliance on a gym LAN: whoever runs it is the contact',
  }

  async function lint(document: unknown) {
    const spectral = new Spectral()
    spectral.setRuleset({
      extends: [[oas as RulesetDefinition, 'recommended']],
      rules: Object.fromEntries(Object.keys(departures).map((rule) => [rule, 'off'])),
    })
    const results = await spectral.run(new Document(JSON.stringify(document), Parsers.Json))
    return results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)
  }

  test("passes Spectral's OpenAPI 3.1 rules: its structure, and defaults and examples of their schema's type", async () => {
    expect(await lint(doc)).toEqual([])
  })

  test('Spectral refuses a default of the wrong type (so the check above means something)', async () => {
    const broken = structuredClone(doc)
    broken.paths['/api/gyms/{id}/'].get.parameters[0].schema = { type: 'string', default: 0 }
    expect(await lint(broken)).toEqual([
      expect.stringContaining(
        'oas3-valid-schema-example at paths./api/gyms/{id}/.get.parameters.0.schema.default',
      ),
    ])
  })

  test('no schema is a string standing in for a number (ids, counts, page numbers are integers)', () => {
    const numericStrings = schemasIn(doc).filter(
      ({ schema }) => schema.type === 'string' && ['integer', 'numeric'].includes(schema.format),
    )
    expect(numericStrings.map(({ at }) => at)).toEqual([])
    for (const { path, method, operation } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' || parameter.name === 'barcode') continue
        // Add-ons are keyed by a text id; every other record by an integer.
        const type = path.startsWith('/api/add-ons/') && parameter.name === 'id' ? 'string' : 'integer'
        expect({ path, method, name: parameter.name, type: parameter.schema.type }).toEqual({
          path,
          method,
          name: parameter.name,
          type,
        })
        expect(parameter.description).toBeString()
      }
    }
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, any>)) {
      if (name.startsWith('Paginated'))
        expect({ name, count: schema.properties.count.type }).toEqual({ name, count: 'integer' })
    }
  })

  test('query parameters carry their types', () => {
    const query = (path: string) =>
      Object.fromEntries(
        doc.paths[path].get.parameters
          .filter((p: any) => p.in === 'query')
          .map((p: any) => [p.name, p.schema.type ?? p.schema.anyOf.map((s: any) => s.type ?? s.const)]),
      )
    expect(query('/api/check-ins/')).toEqual({
      page: ['integer', 'string'],
      page_size: 'integer',
      check_in_date_min: 'string',
      check_in_date_max: 'string',
      this_calendar_day: 'boolean',
      has_checked_out: 'boolean',
      customer_id: 'integer',
      location_id: 'integer',
      entry_method: ['string', 'string', 'string', 'string', 'string', 'string'],
      format: 'string',
    })
    expect(query('/api/event-types/')).toMatchObject({ gym_id: 'integer', status: 'string' })
    expect(query('/api/members/')).toMatchObject({
      membership_id: 'integer',
      is_group: 'boolean',
      start_date_min: 'string',
      include_billing_info: 'boolean',
    })
    const dateFilter = doc.paths['/api/check-ins/'].get.parameters.find(
      (p: any) => p.name === 'check_in_date_min',
    )
    expect(dateFilter.schema.format).toBe('date')
  })

  test("the door's open-door check-in: no body needed, 200 without one, 400 and 404 in plain text", () => {
    const operation = doc.paths['/api/gym-endpoints/open-door-check-in/{barcode}/'].post
    expect(operation.requestBody.required).toBe(false)
    expect(answer(operation, 200).content).toBeUndefined()
    // A 404 is the unknown customer or location to show, or the generic one of a path the server
    // refuses before routing (a dot segment or an encoded slash in the barcode).
    expect(Object.keys(answer(operation, 404).content)).toEqual(['text/plain', 'application/json'])
    // A 400 is the refusal to show, or DRF's answer to a malformed body.
    expect(Object.keys(answer(operation, 400).content)).toEqual(['text/plain', 'application/json'])
    expect(doc.paths['/api/gym-endpoints/barcode-check-in/{barcode}/'].post.requestBody.required).toBe(false)
  })

  test('every operation documents what any such route can answer', () => {
    for (const { path, method, operation } of operations()) {
      const statuses = Object.keys(operation.responses).map(Number)
      const expected = [500]
      if (!PUBLIC_PATHS.has(path)) expected.push(401, 403)
      if (operation.requestBody) expected.push(400, 413, 415)
      expect({ path, method, missing: expected.filter((s) => !statuses.includes(s)) }).toEqual({
        path,
        method,
        missing: [],
      })
    }
    const throttled = answer(doc.paths['/api/get-token/'].post, 429)
    expect(throttled.headers['Retry-After'].required).toBe(true)
    expect(doc.components.responses.Unauthenticated.headers['WWW-Authenticate'].required).toBe(true)
  })

  test('a body that needs no field is optional; one with a required field is required', () => {
    for (const { path, method, operation } of operations()) {
      const body = operation.requestBody
      if (!body) continue
      const schema = resolve(bodySchema(body))
      const needsField = (schema.required ?? []).length > 0
      expect({ path, method, required: body.required }).toEqual({ path, method, required: needsField })
    }
  })

  test('shapes are named in components.schemas, and operations refer to them', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'Gym',
        'GymCreate',
        'GymReplace',
        'PatchedGym',
        'PaginatedGymList',
        'ErrorDetail',
      ]),
    )
    expect(doc.paths['/api/gyms/{id}/'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Gym',
    })
    expect(doc.paths['/api/gyms/{id}/'].patch.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PatchedGym',
    })
  })
})

describe('Swagger UI page', () => {
  test('GET /swagger is HTML that loads Swagger UI from this server, not a CDN', async () => {
    const res = await t.request('GET', '/swagger')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html: string = res.body
    expect(html).toContain('src="/swagger/assets/swagger-ui-bundle.js"')
    expect(html).not.toMatch(/cdn|unpkg|jsdelivr/i)
    const scriptSources = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1])
    const styleSources = [...html.matchAll(/<link rel="stylesheet"[^>]*\shref="([^"]+)"/g)].map((m) => m[1])
    for (const source of [...scriptSources, ...styleSources]) expect(source).toMatch(/^\/swagger\/assets\//)
  })

  test('GET /swagger/ (with the final slash) is the same page, and its document loads from there', async () => {
    for (const page of ['/swagger', '/swagger/']) {
      const res = await t.request('GET', page)
      expect(res.status).toBe(200)
      const options = JSON.parse(/SwaggerUIBundle\((\{.*\})\)/.exec(res.body)![1]!)
      // The browser resolves the document's URL against the page's own.
      const spec = new URL(options.url, `http://localhost${page}`).pathname
      expect({ page, spec }).toEqual({ page, spec: '/swagger/json' })
      expect((await t.request('GET', spec)).body.openapi).toBe('3.1.2')
    }
  })

  test('the Swagger UI assets are served', async () => {
    const js = await t.app.handle(new Request('http://localhost/swagger/assets/swagger-ui-bundle.js'))
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toContain('javascript')
    expect((await js.text()).length).toBeGreaterThan(100_000)
    const css = await t.app.handle(new Request('http://localhost/swagger/assets/swagger-ui.css'))
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toContain('text/css')
  })
})

describe("the test helper's response check", () => {
  const check = (method: string, path: string, response: Response) =>
    checkResponse(
      { handle: t.app.handle, routes: t.app.routes },
      new Request(`${ORIGIN}${path}`, { method }),
      response,
    )
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    })
  const text = (status: number, body: string) =>
    new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } })
  const door = '/api/gym-endpoints/open-door-check-in/LYNN1/'

  test('lets through what the document allows', async () => {
    await check('GET', '/api/gyms/7/', json(404, { detail: 'Not found.' }))
    await check('GET', '/api/gyms/7', json(404, { detail: 'Not found.' }))
    await check('POST', door, text(404, 'Unknown or deactivated customer account.'))
    await check('POST', door, text(200, ''))
    await check('GET', '/api/nope/', json(404, { detail: 'Not found.' }))
    await check('DELETE', '/api/gyms/7/', json(405, { detail: 'Method "DELETE" not allowed.' }))
    await check(
      'GET',
      '/swagger',
      new Response('<html></html>', { headers: { 'content-type': 'text/html' } }),
    )
  })

  test('refuses a body off its schema, naming where', async () => {
    await expect(check('GET', '/api/gyms/7/', json(404, { detail: 7 }))).rejects.toThrow(
      /GET \/api\/gyms\/7\/ answered 404 with a body that does not match[^]*\/detail must be string; found 7/,
    )
    await expect(check('GET', '/api/gyms/7/', json(404, { detail: 'Not found.', extra: 1 }))).rejects.toThrow(
      'must NOT have additional properties (extra)',
    )
  })

  test('refuses a status the operation does not document', async () => {
    await expect(check('GET', '/api/gyms/7/', json(418, {}))).rejects.toThrow(
      'GET /api/gyms/{id}/ documents 200, 401, 403, 404, 414, 431, 500, not 418',
    )
  })

  test('refuses a media type the document does not give, and a body where it gives none', async () => {
    await expect(check('GET', '/api/gyms/7/', text(404, 'Not found.'))).rejects.toThrow(
      'its content type is "text/plain", the document gives application/json',
    )
    await expect(check('POST', door, text(404, 'Who?'))).rejects.toThrow('does not match')
    await expect(check('POST', door, text(200, 'Welcome'))).rejects.toThrow('the document gives no body')
  })

  test('refuses a missing documented header', async () => {
    await expect(check('GET', '/api/gyms/', json(401, { detail: 'Invalid token.' }))).rejects.toThrow(
      'the WWW-Authenticate header is missing',
    )
  })

  test('refuses anything but 404 on a path the document lacks, and but 405 (or 401) on a method', async () => {
    await expect(check('GET', '/api/nope/', json(200, {}))).rejects.toThrow('must be 404')
    await expect(check('DELETE', '/api/gyms/7/', json(204, {}))).rejects.toThrow('must be 405 (or 401)')
    await expect(check('DELETE', '/api/gyms/7/', json(404, { detail: 'Not found.' }))).rejects.toThrow(
      'must be 405 (or 401)',
    )
  })

  test("takes the 404 the server's raw-path check gives an encoded slash, whatever the method", async () => {
    await check('PUT', '/api/customers/..%2f/alerts/', json(404, { detail: 'Not found.' }))
    await check('DELETE', '/api/gyms/7%5c/', json(404, { detail: 'Not found.' }))
  })
})

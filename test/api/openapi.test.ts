import SwaggerParser from '@apidevtools/swagger-parser'
import { beforeAll, describe, expect, test } from 'bun:test'
import { useTestApp } from '../helpers/seeded.ts'

const PUBLIC_PATHS = new Set(['/healthz', '/api/get-token/'])

const t = useTestApp({ once: true })
let doc: any

beforeAll(async () => {
  const res = await t.request('GET', '/swagger/json')
  expect(res.status).toBe(200)
  doc = res.body
})

/** Elysia's `/api/gyms/:id/` as OpenAPI writes it: `/api/gyms/{id}/`. */
const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

/** Every route a client may call: the API and the health check (not the docs pages themselves). */
const apiRoutes = () =>
  t.app.routes
    .filter((r) => r.path.startsWith('/api/') || r.path === '/healthz')
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
          security: [{ Token: [] }],
        })
      }
    }
    expect(doc.security ?? []).toEqual([])
  })

  test('POST /api/gyms/ documents its JSON request body schema', () => {
    const request = doc.paths['/api/gyms/'].post.requestBody?.content?.['application/json']?.schema
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
    const created = doc.paths['/api/gyms/'].post.responses['201'].content['application/json'].schema
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

  test('every POST, PUT and PATCH documents a JSON request body schema', () => {
    const withoutSchema = apiRoutes()
      .filter((r) => ['post', 'put', 'patch'].includes(r.method))
      .filter(
        (r) => doc.paths[r.path][r.method].requestBody?.content?.['application/json']?.schema === undefined,
      )
      .map((r) => `${r.method.toUpperCase()} ${r.path}`)
    expect(withoutSchema).toEqual([])
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
    const styleSources = [...html.matchAll(/<link[^>]*\shref="([^"]+)"/g)].map((m) => m[1])
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

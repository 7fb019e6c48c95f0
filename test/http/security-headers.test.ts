import { describe, expect, test } from 'bun:test'
import { makeCustomer, makeDocument } from '../helpers/customer-factories.ts'
import { ORIGIN } from '../helpers/app.ts'
import { useSeededApp } from '../helpers/seeded.ts'

/*
 * What each answer tells a browser about trusting it: every answer forbids sniffing its content
 * type; each page the box serves runs only the box's own files and cannot be framed by another
 * site; the API's document is data, never a page.
 */

const t = useSeededApp({ once: true })

const PDF = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)

async function send(
  method: string,
  path: string,
  init: { token?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers }
  if (init.token) headers.authorization = `Token ${init.token}`
  if (init.body !== undefined) headers['content-type'] ??= 'application/json'
  return t.app.handle(new Request(`${ORIGIN}${path}`, { method, headers, body: init.body }))
}

describe('every answer says X-Content-Type-Options: nosniff', () => {
  test('JSON, a PDF, text, HTML, scripts and every kind of error', async () => {
    const customer = await makeCustomer(t.db)
    const document = await makeDocument(t.db, customer.id, {}, PDF)
    const admin = t.seed.adminToken
    const answers = [
      await send('GET', '/api/gyms/', { token: admin }),
      await send('GET', `/api/customers/${customer.id}/documents/${document.id}/pdf/`, { token: admin }),
      await send('GET', '/metrics', { token: admin }),
      await send('POST', '/api/gym-endpoints/open-door-check-in/NO-SUCH-CARD/', { token: admin, body: '{}' }),
      await send('GET', '/'),
      await send('GET', '/swagger'),
      await send('GET', '/swagger/json'),
      await send('GET', '/swagger/assets/swagger-ui-bundle.js'),
      await send('GET', '/api/gyms/'),
      await send('GET', '/api/gyms/', { token: t.seed.staffToken, headers: {} }),
      await send('POST', '/api/gyms/', { token: t.seed.staffToken, body: '{}' }),
      await send('POST', '/api/gyms/', { token: admin, body: '{' }),
      await send('POST', '/api/gyms/', { token: admin, body: '{}' }),
      await send('GET', '/api/gyms/abc/', { token: admin }),
      await send('GET', '/api/no-such-thing/', { token: admin }),
      await send('DELETE', '/api/gyms/', { token: admin }),
      await send('GET', `/api/gyms/?search=${'a'.repeat(20_000)}`, { token: admin }),
    ]
    expect(answers.map((r) => r.status)).toEqual([
      200, 200, 200, 404, 200, 200, 200, 200, 401, 200, 403, 400, 400, 404, 404, 405, 414,
    ])
    for (const answer of answers) {
      expect({ url: answer.url, nosniff: answer.headers.get('x-content-type-options') }).toEqual({
        url: answer.url,
        nosniff: 'nosniff',
      })
    }
    expect(answers[1]!.headers.get('content-type')).toBe('application/pdf')
  })
})

describe('the docs page', () => {
  for (const path of ['/swagger', '/swagger/']) {
    test(`${path}: only its own files and its own start-up script run, and no site frames it`, async () => {
      const res = await send('GET', path)
      expect(res.status).toBe(200)
      const page = await res.text()
      const inline = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
      expect(inline).toHaveLength(1)
      const hash = new Bun.CryptoHasher('sha256').update(inline[0]!).digest('base64')
      expect(Object.fromEntries(res.headers)).toEqual({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'self'; script-src 'self' 'sha256-${hash}'; img-src 'self' data:; frame-ancestors 'none'`,
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
      })
      // Every file it loads is the box's own; its icon is empty, so that none is asked for.
      expect([...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])).toEqual([
        'data:,',
        '/swagger/assets/swagger-ui.css',
        '/swagger/assets/swagger-ui-bundle.js',
      ])
    })
  }

  test('the document is data: it loads nothing and no site frames it', async () => {
    const res = await send('GET', '/swagger/json')
    expect(res.status).toBe(200)
    expect(Object.fromEntries(res.headers)).toEqual({
      'content-type': 'application/json;charset=utf-8',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    })
  })
})

test("the desk's page has the same policy, with no inline script to allow", async () => {
  const res = await send('GET', '/')
  expect(res.headers.get('content-security-policy')).toBe(
    "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
  )
  expect(res.headers.get('x-frame-options')).toBe('DENY')
})

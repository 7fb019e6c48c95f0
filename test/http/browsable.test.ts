import { beforeEach, describe, expect, test } from 'bun:test'
import { prefersHtml } from '../../src/http/browsable/negotiation.ts'
import type { TestResponse } from '../helpers/app.ts'
import { makeCustomer } from '../helpers/customer-factories.ts'
import { makeUser } from '../helpers/factories.ts'
import { useSeededApp } from '../helpers/seeded.ts'
import { logInSession, withSession, type Session } from '../helpers/sessions.ts'

/**
 * The browsable API: which requests get the HTML page and which JSON, what the page shows, and
 * that every value in it is text. Each response is also held to the document by the test app
 * (a page only where one was asked for, with a documented status).
 */

const t = useSeededApp()
/** What Chromium sends when it opens a URL. */
const BROWSER =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'
const PASSWORD = 'slab-climber-42'
let session: Session

beforeEach(async () => {
  await makeUser(t.db, { email: 'manager@gym.example', password: PASSWORD, can_manage_members: 1 })
  session = await logInSession(t, 'manager@gym.example', PASSWORD)
})

const open = (path: string, accept: string | null = BROWSER) =>
  withSession(t, session, 'GET', path, { headers: accept === null ? {} : { accept } })

const isPage = (res: TestResponse) => {
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(res.headers.get('vary')).toBe('Accept')
  expect(res.body).toStartWith('<!doctype html>')
}

const isJson = (res: TestResponse) => {
  expect(res.headers.get('content-type')).toStartWith('application/json')
  expect(typeof res.body).toBe('object')
}

describe('content negotiation', () => {
  test("a browser's Accept gets the page; the JSON is the same as a client's", async () => {
    await makeCustomer(t.db, { first_name: 'Alex', last_name: 'Honnold' })
    const page = await open('/api/customers/')
    expect(page.status).toBe(200)
    isPage(page)
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    )
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    const json = await open('/api/customers/', 'application/json')
    isJson(json)
    expect(json.headers.get('vary')).toBeNull()
    expect(json.body.results[0].last_name).toBe('Honnold')
    expect(page.body).toContain('<span class="string">&quot;Honnold&quot;</span>')
  })

  test.each([
    ['curl', '*/*'],
    ['a library', 'application/json'],
    ['no Accept', null],
    ['JSON before HTML at the same q', 'application/json, text/html'],
    ['HTML at a lower q', 'text/html;q=0.5, application/json'],
    ['HTML refused', 'text/html;q=0, */*'],
  ])('%s gets JSON', async (_, accept) => {
    const res = await open('/api/gyms/', accept)
    expect(res.status).toBe(200)
    isJson(res)
    expect(res.body.count).toBe(1)
  })

  test('an Accept naming HTML but preferring JSON gets JSON that says it varies by Accept', async () => {
    const res = await open('/api/gyms/', 'application/json, text/html;q=0.9')
    isJson(res)
    expect(res.headers.get('vary')).toBe('Accept')
  })

  test('?format=json is JSON even for a browser; ?format=api is the page even for curl', async () => {
    const json = await open('/api/gyms/?format=json')
    isJson(json)
    expect(json.body.count).toBe(1)
    const page = await open('/api/gyms/?format=api', '*/*')
    expect(page.status).toBe(200)
    isPage(page)
    // The request line shows what was asked; the JSON was asked without `format`.
    expect(page.body).toContain('<b>GET</b> /api/gyms/?format=api</pre>')
    expect(page.body).toContain('&quot;next&quot;</span>: <span class="null">null</span>')
  })

  test('another format (csv) is left to the route, whatever the Accept', async () => {
    const res = await open('/api/gyms/?format=csv')
    expect(res.headers.get('content-type')).not.toStartWith('text/html')
    expect(res.headers.get('vary')).toBeNull()
  })

  test("HEAD from a browser: the page's status and headers, no body", async () => {
    const res = await withSession(t, session, 'HEAD', '/api/gyms/', { headers: { accept: BROWSER } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.body).toBe('')
  })

  test('writes are never negotiated: a browser POST gets JSON', async () => {
    const res = await withSession(t, session, 'POST', '/api/customers/', {
      headers: { accept: BROWSER },
      body: { first_name: 'Lynn' },
    })
    expect(res.status).toBe(400)
    isJson(res)
    expect(res.body).toEqual({
      last_name: ['This field is required.'],
      birthday: ['This field is required.'],
    })
  })

  test.each([
    ['Chromium', BROWSER, true],
    ['Firefox', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['HTML first, JSON equal', 'text/html, application/json', true],
    ['text/* listed before JSON', 'text/*, application/json', true],
    ['HTML only by a wildcard', 'text/*;q=0.9, */*;q=0.1', true],
    ['a bad q', 'text/html;q=x, application/json', false],
  ])('%s: prefers HTML is %p', (_, accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected)
  })
})

describe('unauthenticated', () => {
  test('a browser without a session gets a 401 page with the body and a log-in form', async () => {
    const res = await t.request('GET', '/api/customers/', { headers: { accept: BROWSER } })
    expect(res.status).toBe(401)
    isPage(res)
    expect(res.headers.get('www-authenticate')).toBe('Token')
    expect(res.body).toContain(
      '<b class="status failed">HTTP 401 Unauthorized</b>\n<b>Allow:</b> GET, POST, HEAD, OPTIONS\n<b>Content-Type:</b> application/json\n<b>Vary:</b> Accept\n<b>WWW-Authenticate:</b> Token\n\n{',
    )
    expect(res.body).toContain(
      '<span class="key">&quot;detail&quot;</span>: <span class="string">&quot;Authentication credentials were not provided.&quot;</span>',
    )
    expect(res.body).toContain('<details class="login" id="login" open>')
    expect(res.body).toContain('<form id="login-form" method="post" action="/api/login/">')
    // Nothing to filter or send before logging in.
    expect(res.body).not.toContain('id="filters"')
    expect(res.body).not.toContain('id="write"')
  })
})

describe('the page', () => {
  test('a customer named <script> is text, in the body and in the editor', async () => {
    const customer = await makeCustomer(t.db, {
      first_name: '<script>alert(1)</script>',
      last_name: '"Quote\'s"',
    })
    const res = await open(`/api/customers/${customer.id}/`)
    expect(res.status).toBe(200)
    expect(res.body).not.toContain('<script>alert')
    expect(res.body).toContain('&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;')
    expect(res.body).toContain('&quot;\\&quot;Quote&#39;s\\&quot;&quot;')
    // One script, the page's own file.
    expect(res.body.match(/<script/g)).toEqual(['<script'])
    expect(res.body).toMatch(/<script src="\/api-assets\/browsable-[0-9a-z]+\.js" defer><\/script>/)
  })

  test("a record: its name, description, Allow, links, and an editor with the record's fields", async () => {
    const customer = await makeCustomer(t.db, { first_name: 'Lynn', last_name: 'Hill' })
    const res = await open(`/api/customers/${customer.id}/`)
    expect(res.body).toContain('<title>Read a customer – Belay API</title>')
    expect(res.body).toContain('<h1>Read a customer</h1>')
    expect(res.body).toContain('<p>The customer, with links to their records (<code>credits_url</code>')
    expect(res.body).toContain(
      `<b class="status">HTTP 200 OK</b>\n<b>Allow:</b> GET, PUT, PATCH, HEAD, OPTIONS\n<b>Content-Type:</b> application/json;charset=utf-8\n<b>Vary:</b> Accept\n\n{`,
    )
    expect(res.body).toContain(
      `<a class="string" href="http://localhost/api/customers/${customer.id}/credits/" rel="nofollow">&quot;http://localhost/api/customers/${customer.id}/credits/&quot;</a>`,
    )
    expect(res.body).toContain('<button type="submit" name="method" value="PUT">PUT</button>')
    expect(res.body).toContain('<button type="submit" name="method" value="PATCH">PATCH</button>')
    // Customers are never deleted: no DELETE button.
    expect(res.body).not.toContain('id="delete"')
    const editor = /<textarea[^>]*>([^<]*)<\/textarea>/.exec(res.body)![1]!
    const fields = JSON.parse(
      editor.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&'),
    )
    expect(fields.first_name).toBe('Lynn')
    expect(fields.id).toBeUndefined()
    expect(fields.url).toBeUndefined()
    expect(res.body).toContain(
      '<nav class="crumbs" aria-label="Breadcrumb"><a href="/api/">API</a> <span class="sep">/</span> <a href="/api/customers/">customers</a> <span class="sep">/</span> <span>',
    )
  })

  test('a list: pagination links and a filter form from its documented query parameters', async () => {
    for (const name of ['Ann', 'Bea', 'Cat']) await makeCustomer(t.db, { first_name: name })
    const res = await open('/api/customers/?page_size=1&search=a')
    expect(res.body).toContain(
      '<nav class="pages" aria-label="Pages"><span class="disabled">&laquo; Previous</span> <a href="http://localhost/api/customers/?page_size=1&amp;search=a&amp;page=2" rel="next">Next &raquo;</a> <span class="count">3 in all</span></nav>',
    )
    expect(res.body).toContain(
      '<label><span class="name">search</span><input name="search" value="a"><small>Case-insensitive substring</small></label>',
    )
    expect(res.body).toContain(
      '<select name="is_active"><option value="">any</option><option>true</option><option>false</option></select>',
    )
    expect(res.body).not.toContain('name="page"')
    // A POST editor with the create schema's required fields, empty.
    const editor = /<textarea[^>]*>([^<]*)<\/textarea>/.exec(res.body)![1]!
    expect(JSON.parse(editor.replaceAll('&quot;', '"'))).toEqual({
      first_name: '',
      last_name: '',
      birthday: '',
    })
  })

  test('a filter with a bad value: the 400 and its body in the page', async () => {
    const res = await open('/api/customers/?home_location_id=x')
    expect(res.status).toBe(400)
    expect(res.body).toContain('<b class="status failed">HTTP 400 Bad Request</b>')
    expect(res.body).toContain(
      '<span class="key">&quot;home_location_id&quot;</span>: [\n        <span class="string">&quot;Enter a number.&quot;</span>',
    )
  })

  test('a user without the write permission sees no editor', async () => {
    await makeUser(t.db, { email: 'reader@gym.example', password: PASSWORD })
    const reader = await logInSession(t, 'reader@gym.example', PASSWORD)
    const res = await withSession(t, reader, 'GET', '/api/customers/', { headers: { accept: BROWSER } })
    expect(res.status).toBe(200)
    expect(res.body).toContain('<span class="user">reader@gym.example</span>')
    expect(res.body).not.toContain('id="write"')
  })

  test('a 404 and a 405 are pages too', async () => {
    const missing = await open('/api/customers/999/')
    expect(missing.status).toBe(404)
    expect(missing.body).toContain('&quot;Not found.&quot;')
    const method = await open('/api/logout/')
    expect(method.status).toBe(405)
    expect(method.body).toContain('&quot;Method \\&quot;GET\\&quot; not allowed.&quot;')
    const nowhere = await open('/api/nowhere/')
    expect(nowhere.status).toBe(404)
    expect(nowhere.body).toContain('<h1>Not Found</h1>')
  })

  test('the script and stylesheet are served as files', async () => {
    const res = await open('/api/gyms/')
    const [script, styles] = ['js', 'css'].map(
      (ext) => new RegExp(`/api-assets/browsable-[0-9a-z]+\\.${ext}`).exec(res.body)![0],
    )
    const js = await t.request('GET', script!)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(js.body).toContain('x-csrftoken')
    const css = await t.request('GET', styles!)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect((await t.request('GET', '/api-assets/other.js')).status).toBe(404)
  })
})

describe('GET /api/', () => {
  test('JSON for clients: every collection by name with its absolute URL, without a token', async () => {
    const res = await t.request('GET', '/api/')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual([
      'organization',
      'users',
      'my-account',
      'gyms',
      'event-types',
      'event-categories',
      'customers',
      'waiver-texts',
      'members',
      'memberships',
      'add-ons',
      'customer-memberships',
      'entry-passes',
      'customer-entry-passes',
      'events',
      'reservations',
      'waitlist-entries',
      'voucher-packs',
      'invoices',
      'tax-rates',
      'discounts',
      'payments',
      'webhooks',
      'backups',
      'sites',
      'check-ins',
    ])
    expect(res.body.customers).toBe('http://localhost/api/customers/')
  })

  test('the page for browsers, its collections links', async () => {
    const res = await open('/api/')
    expect(res.status).toBe(200)
    isPage(res)
    expect(res.body).toContain('<h1>List every collection</h1>')
    expect(res.body).toContain(
      '<a class="string" href="http://localhost/api/customers/" rel="nofollow">&quot;http://localhost/api/customers/&quot;</a>',
    )
  })
})

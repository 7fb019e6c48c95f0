import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { prepareFuzzTarget, type FuzzTarget } from '../fuzz/target.ts'
import { makeTestApp, ORIGIN, type TestApp } from '../helpers/app.ts'
import { notFound } from '../helpers/bodies.ts'

/*
 * A record's id in a path is its digits, as DRF's `\d+` URL patterns take it: every other spelling
 * JavaScript's Number() reads as the same number (0x0A for 10, 1e1, +1, 1.0, ' 1') is 404 and
 * changes nothing, on every route of the app that names a record in its path, whatever the method.
 * The routes are read from the app's own OpenAPI document, so a route added later is walked too.
 */

let t: TestApp
let target: FuzzTarget
let doc: any

beforeAll(async () => {
  t = await makeTestApp()
  target = await prepareFuzzTarget(t.db)
  doc = (await t.request('GET', '/swagger/json')).body
})

afterAll(() => t.close())

interface RecordRoute {
  method: string
  path: string
  /** The path parameters that name a record by its id. */
  recordParams: string[]
}

/** Every operation whose path names a record by id: its integer path parameters, from the document. */
function recordRoutes(): RecordRoute[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([template, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const recordParams: string[] = (operation.parameters ?? [])
        .filter((p: any) => p.in === 'path' && p.schema?.type === 'integer')
        .map((p: any) => p.name)
      const path = template.replace(/\{(\w+)\}/g, ':$1')
      return recordParams.length > 0 ? [{ method: method.toUpperCase(), path, recordParams }] : []
    }),
  )
}

/** Spellings of `id` that are not its digits, each of which Number() reads as `id`. */
function otherSpellings(id: number): string[] {
  return [
    `0x${id.toString(16)}`,
    `0X${id.toString(16).toUpperCase()}`,
    `0b${id.toString(2)}`,
    `0o${id.toString(8)}`,
    `${id}e0`,
    `${id * 10}e-1`,
    `.${id}e1`,
    `+${id}`,
    `${id}.0`,
    `${id}.`,
    `%20${id}`,
    `${id}%20`,
    `%09${id}`,
    `${id}%0A`,
    // Digits of other scripts are not digits here (fullwidth, Arabic-Indic): encodeURIComponent.
    encodeURIComponent(String(id).replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))),
    encodeURIComponent(String(id).replace(/[0-9]/g, (d) => String.fromCharCode(0x0660 + Number(d)))),
  ]
}

/**
 * Digits of numbers past the largest integer JavaScript holds exactly: read as numbers they would
 * round onto another value, so they name no record.
 */
const HUGE_DIGITS = [
  '9007199254740993',
  '18446744073709551617',
  '99999999999999999999999999999999',
  `1${'0'.repeat(400)}`,
]

/** An id every table the demo fills holds: customer 1's alert, credit, document, ... */
const KNOWN_ID = 1

const changesSoFar = () =>
  Number((t.deps.sqlite.query('SELECT total_changes() AS n').get() as { n: number }).n)

async function send(method: string, path: string) {
  const response = await t.app.handle(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: { authorization: `Token ${target.tokens.fuzzer}`, 'content-type': 'application/json' },
      body: method === 'GET' ? undefined : '{}',
    }),
  )
  const text = await response.text()
  return { status: response.status, body: text === '' ? text : JSON.parse(text) }
}

const fill = (path: string, values: Record<string, string>) =>
  path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? String(KNOWN_ID))

test('the walk covers every kind of route that names a record', () => {
  const routes = recordRoutes()
  const methods = new Set(routes.map((r) => r.method))
  expect([...methods].sort()).toEqual(['DELETE', 'GET', 'OPTIONS', 'PATCH', 'POST', 'PUT'])
  const paths = routes.map((r) => `${r.method} ${r.path}`)
  for (const expected of [
    'PATCH /api/customers/:customer_id/',
    'DELETE /api/webhooks/:id/',
    'POST /api/payments/:id/refund/',
    'POST /api/customer-memberships/:id/freeze/',
    'GET /api/customers/:customer_id/documents/:id/pdf/',
    'POST /api/webhooks/:id/events/:webhook_event_id/redeliver/',
    'POST /api/gym-endpoints/free-entry-check-in/:customer_id/',
    'POST /api/gym-endpoints/guest-check-in/:customer_id/',
    'GET /api/gyms/:id/climbs/',
    'OPTIONS /api/customers/:customer_id/credits/',
  ])
    expect(paths).toContain(expected)
})

describe('an id spelled any way but its digits is 404 and changes nothing', () => {
  for (const spelling of [...otherSpellings(KNOWN_ID), ...otherSpellings(10)]) {
    test(`'${spelling}'`, async () => {
      const answers: string[] = []
      const before = changesSoFar()
      for (const route of recordRoutes()) {
        for (const param of route.recordParams) {
          const path = fill(route.path, { [param]: spelling })
          const res = await send(route.method, path)
          if (res.status !== 404 || JSON.stringify(res.body) !== JSON.stringify(notFound))
            answers.push(`${route.method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`)
        }
      }
      expect(answers).toEqual([])
      expect(changesSoFar()).toBe(before)
    })
  }
})

test('digits past the largest safe integer are 404 on every route and change nothing', async () => {
  const answers: string[] = []
  const before = changesSoFar()
  for (const digits of HUGE_DIGITS) {
    for (const route of recordRoutes()) {
      for (const param of route.recordParams) {
        const path = fill(route.path, { [param]: digits })
        const res = await send(route.method, path)
        if (res.status !== 404 || JSON.stringify(res.body) !== JSON.stringify(notFound))
          answers.push(`${route.method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`)
      }
    }
  }
  expect(answers).toEqual([])
  expect(changesSoFar()).toBe(before)
})

describe('the digits themselves name the record', () => {
  test.each(['10', '010', '0000000000000000000000010'])(
    'GET /api/customers/%s/ is customer 10',
    async (id) => {
      const res = await send('GET', `/api/customers/${id}/`)
      expect({ status: res.status, id: res.body.id }).toEqual({ status: 200, id: 10 })
    },
  )

  test('a PATCH through the digits writes the record', async () => {
    const res = await send('PATCH', '/api/customers/10/')
    expect({ status: res.status, id: res.body.id }).toEqual({ status: 200, id: 10 })
  })

  test('0 and digits no record has are 404', async () => {
    for (const id of ['0', '00', '999999', String(Number.MAX_SAFE_INTEGER)])
      expect(await send('GET', `/api/customers/${id}/`)).toEqual({ status: 404, body: notFound })
  })
})

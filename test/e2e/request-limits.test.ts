/**
 * Request heads against the built executable: only the real server shows whether its own head limit
 * lets over-long URLs and headers reach the app's JSON 414/431 (a test app has no such limit), and
 * only a raw request keeps the dot segments and encoded slashes that every client library resolves.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import {
  MAX_HEADER_BYTES,
  MAX_URL_BYTES,
  SERVER_HEADER_READ_LIMIT_BYTES,
} from '../../src/http/request-limits.ts'
import { getToken, removeTempDirs, request, startServer, stopAll, type Server } from './helpers.ts'

let server: Server

const ADMIN_EMAIL = 'owner@crag.example'
const ADMIN_PASSWORD = 'dot-segments-are-404'
let token: string

beforeAll(async () => {
  server = await startServer({
    env: { BELAY_ADMIN_EMAIL: ADMIN_EMAIL, BELAY_ADMIN_PASSWORD: ADMIN_PASSWORD },
  })
  token = await getToken(server.base, ADMIN_EMAIL, ADMIN_PASSWORD)
})

/** One HTTP/1.1 request written to the socket as given (fetch would resolve its dot segments). */
function rawRequest(method: string, target: string, body = ''): Promise<{ status: number; body: string }> {
  const head =
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
    `Authorization: Token ${token}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(head + body))
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => (received += chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const [statusLine = '', ...rest] = received.split('\r\n')
      resolve({
        status: Number(statusLine.split(' ')[1]),
        body: rest.join('\r\n').split('\r\n\r\n')[1] ?? '',
      })
    })
  })
}

afterAll(async () => {
  await stopAll()
  removeTempDirs()
})

test('the server reads heads past both app limits', () => {
  expect(SERVER_HEADER_READ_LIMIT_BYTES).toBeGreaterThan(MAX_URL_BYTES + MAX_HEADER_BYTES)
})

test('a 32 KB URL gets the JSON 414, not a bare 431', async () => {
  const res = await request(server.base, 'GET', `/api/customers/?search=${'a'.repeat(32 * 1024)}`)
  expect(res.status).toBe(414)
  expect(res.body).toEqual({ detail: 'Request URL is too long.' })
})

test('a 32 KB header gets the JSON 431', async () => {
  const res = await request(server.base, 'GET', '/api/gyms/', {
    headers: { 'x-padding': 'a'.repeat(32 * 1024) },
  })
  expect(res.status).toBe(431)
  expect(res.body).toEqual({ detail: 'Request header fields are too large.' })
})

describe('dot segments and encoded slashes in the path are 404', () => {
  let customerUrl: string

  beforeAll(async () => {
    const created = await request(server.base, 'POST', '/api/customers/', {
      token,
      json: { first_name: 'Lynn', last_name: 'Hill', birthday: '1961-01-03' },
    })
    expect(created.status).toBe(201)
    customerUrl = `/api/customers/${created.body.id}/`
  })

  test.each([
    ['%2e%2e', 'alerts/%2e%2e/'],
    ['..', 'alerts/../'],
    ['%2E.', 'alerts/%2E./'],
    ['.', './'],
    ['%2e', '%2e/'],
  ])('a PATCH through %p changes nothing', async (_, tail) => {
    const res = await rawRequest('PATCH', customerUrl + tail, JSON.stringify({ first_name: 'Changed' }))
    expect(res.status).toBe(404)
    expect(JSON.parse(res.body)).toEqual({ detail: 'Not found.' })
    const customer = await request(server.base, 'GET', customerUrl, { token })
    expect(customer.body.first_name).toBe('Lynn')
  })

  test.each([['/api/customers/1%2falerts/'], ['/api/gyms%2f1/'], ['/api/gyms/1%5c/']])(
    'GET %s is 404',
    async (target) => {
      const res = await rawRequest('GET', target)
      expect(res.status).toBe(404)
      expect(JSON.parse(res.body)).toEqual({ detail: 'Not found.' })
    },
  )

  test('ordinary paths, with and without the final slash, and the root still reach the app', async () => {
    expect((await rawRequest('GET', customerUrl)).status).toBe(200)
    expect((await rawRequest('GET', customerUrl.slice(0, -1))).status).toBe(200)
    expect((await rawRequest('GET', '/api/gyms/?page=1')).status).toBe(200)
    expect((await rawRequest('GET', '/healthz')).status).toBe(200)
  })
})

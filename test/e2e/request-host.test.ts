/**
 * The Host a client sends, against the built executable: a box on port 80 reached as http://pi/
 * gets requests whose URL is `http://pi/...` (the default port dropped), and it must serve them as
 * it serves any other host. Only a raw request sets Host to anything (fetch sends the URL's own).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { getToken, removeTempDirs, startServer, stopAll, type Server } from './helpers.ts'

let server: Server
let token: string

const ADMIN_EMAIL = 'owner@crag.example'
const ADMIN_PASSWORD = 'any-host-serves'

beforeAll(async () => {
  server = await startServer({
    env: { BELAY_ADMIN_EMAIL: ADMIN_EMAIL, BELAY_ADMIN_PASSWORD: ADMIN_PASSWORD },
  })
  token = await getToken(server.base, ADMIN_EMAIL, ADMIN_PASSWORD)
})

afterAll(async () => {
  await stopAll()
  removeTempDirs()
})

interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** One HTTP/1.1 request with the Host header given, written to the socket as is. */
function send(host: string, method: string, target: string, auth = false): Promise<RawResponse> {
  const head =
    `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n` +
    (auth ? `Authorization: Token ${token}\r\n` : '') +
    'Content-Length: 0\r\n\r\n'
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(head))
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => (received += chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const [head = '', ...body] = received.split('\r\n\r\n')
      const [statusLine = '', ...headerLines] = head.split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of headerLines) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body.join('\r\n\r\n') })
    })
  })
}

/** Host spellings a box is reached by: short names with and without the default port, addresses. */
const HOSTS = [
  'x',
  'pi',
  'nuc',
  'pi:80',
  'abc:80',
  'PI',
  'abcd',
  '127.0.0.1',
  '10.0.0.7:80',
  '[::1]',
  '[::1]:80',
  '[::1]:8080',
  'desk.gym.example:8080',
]

describe.each(HOSTS)('Host: %s', (host) => {
  test('the health check answers', async () => {
    const res = await send(host, 'GET', '/healthz')
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok', database: 'ok' })
  })

  test('the desk page is served', async () => {
    const res = await send(host, 'GET', '/')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.body).toContain('<title>Belay front desk</title>')
  })

  test("an API read answers with URLs on the client's own origin", async () => {
    const res = await send(host, 'GET', '/api/gyms/?page_size=1', true)
    expect(res.status).toBe(200)
    const origin = new URL(`http://${host}`).origin
    expect(JSON.parse(res.body).results[0].url).toBe(`${origin}/api/gyms/1/`)
  })

  test("the door's endpoint answers the door's own refusal of an unknown card", async () => {
    const res = await send(host, 'POST', '/api/gym-endpoints/open-door-check-in/NO-SUCH-CARD/', true)
    expect(res.status).toBe(404)
    expect(res.body).toBe('Unknown or deactivated customer account.')
  })

  test('a path that ends in a route but does not name it is 404', async () => {
    const res = await send(host, 'GET', '/xyz/healthz')
    expect(res.status).toBe(404)
    expect(JSON.parse(res.body)).toEqual({ detail: 'Not found.' })
  })
})

describe('a Host that names no host gets a JSON 400, whatever the path', () => {
  // The server cannot build a URL from these: the request arrives with its path alone.
  test.each(['', 'a b', 'pi/x', 'pi?x', 'pi#x', 'user@pi'])('Host: %p', async (host) => {
    for (const path of ['/', '/healthz', '/api/gyms/', '/api/customers/1/']) {
      const res = await send(host, 'GET', path, true)
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: JSON.stringify({ detail: 'Invalid Host header.' }),
      })
      expect(res.headers['content-type']).toBe('application/json')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    }
  })
})

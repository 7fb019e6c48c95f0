import { describe, expect, test } from 'bun:test'
import { useSeededApp } from '../helpers/seeded.ts'

/*
 * The host a request names plays no part in which route serves it: a box reached by a short name
 * (http://pi/), an address or a name with a port is the same API. The URL a request arrives with
 * is the one the server builds from its Host header, the default port dropped.
 */

const t = useSeededApp({ once: true })

const ORIGINS = [
  'http://x',
  'http://pi',
  'http://nuc',
  'http://pi:8080',
  'http://abcd',
  'http://10.0.0.7',
  'http://[::1]',
  'http://[::1]:8080',
  'http://desk.gym.example',
]

async function send(origin: string, method: string, path: string) {
  const response = await t.app.handle(
    new Request(`${origin}${path}`, { method, headers: { authorization: `Token ${t.seed.adminToken}` } }),
  )
  return { status: response.status, body: await response.json() }
}

describe.each(ORIGINS)('a request to %s', (origin) => {
  test('reads the route its path names, and writes URLs with that origin', async () => {
    expect(await send(origin, 'GET', `/api/gyms/${t.seed.gym.id}/`)).toMatchObject({
      status: 200,
      body: { id: t.seed.gym.id, url: `${origin}/api/gyms/${t.seed.gym.id}/` },
    })
  })

  test('a path no route serves is 404, a method the path lacks 405', async () => {
    expect(await send(origin, 'GET', '/api/no-such-collection/')).toEqual({
      status: 404,
      body: { detail: 'Not found.' },
    })
    expect(await send(origin, 'DELETE', '/api/gyms/')).toEqual({
      status: 405,
      body: { detail: 'Method "DELETE" not allowed.' },
    })
  })

  test('a path that only the tail of the path would match is 404', async () => {
    // With the path read from a fixed offset into the URL, http://pi/xy/api/gyms/ read as /api/gyms/.
    expect(await send(origin, 'GET', '/xy/api/gyms/')).toEqual({
      status: 404,
      body: { detail: 'Not found.' },
    })
  })
})

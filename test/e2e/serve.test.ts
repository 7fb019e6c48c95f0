/**
 * `belay serve` as the front desk, a door controller or an integrator meets it: the built executable,
 * real HTTP on loopback, a temporary database, restarts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import {
  getToken,
  removeTempDirs,
  request,
  ROOT,
  startServer,
  stopAll,
  tempDbPath,
  tempDir,
  type Server,
} from './helpers.ts'

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
const MiB = 1024 * 1024

afterAll(async () => {
  await stopAll()
  removeTempDirs()
})

function gymBody(base: string, id: number, name: string, timeZone: string) {
  return {
    id,
    url: `${base}/api/gyms/${id}/`,
    name,
    hide_setter: false,
    time_zone: timeZone,
    scheduler_url_path: '',
    scheduler_landing_page_text: '',
    scheduler_first_day_of_week: 'SUN',
    capacity: null,
    combine_same_day_check_ins: false,
    created_at: expect.stringMatching(ISO_DATETIME),
    updated_at: expect.stringMatching(ISO_DATETIME),
    climbs_url: `${base}/api/gyms/${id}/climbs/`,
    grades_url: `${base}/api/gyms/${id}/grades/`,
    sections_url: `${base}/api/gyms/${id}/sections/`,
  }
}

function eventTypeBody(
  base: string,
  e: { id: number; name: string; gym_id: number; gym_name: string; status: string },
) {
  return {
    id: e.id,
    url: `${base}/api/event-types/${e.id}/`,
    name: e.name,
    gym_id: e.gym_id,
    gym_name: e.gym_name,
    gym_url: `${base}/api/gyms/${e.gym_id}/`,
    status: e.status,
    capacity: null,
    late_booking_window_minutes: 15,
    is_listed: true,
    max_reservations_per_day_for_customer: null,
    waitlist_promotion_cutoff_hours: 2,
    booking_horizon_days: 28,
    schedule_type: 'recurring',
    category_ids: [],
    created_at: expect.stringMatching(ISO_DATETIME),
    updated_at: expect.stringMatching(ISO_DATETIME),
    questions_url: `${base}/api/event-types/${e.id}/questions/`,
    schedules_url: `${base}/api/event-types/${e.id}/schedules/`,
    service_scheduler_url: `${base}/scheduler/${e.gym_id}/event-types/${e.id}/`,
  }
}

const page = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results })

describe("a gym's first day, then a restart on the same database", () => {
  const ADMIN_EMAIL = 'owner@flatirons.example'
  const ADMIN_PASSWORD = 'correct-horse-battery-9'
  const GYM = 'Flatirons Boulders'
  const env = {
    BELAY_ADMIN_EMAIL: ADMIN_EMAIL,
    BELAY_ADMIN_PASSWORD: ADMIN_PASSWORD,
    BELAY_GYM_NAME: GYM,
    BELAY_TIME_ZONE: 'America/Denver',
  }
  let db: string
  let cwd: string
  let server: Server
  let token: string
  let firstGymCreatedAt: string
  const created = {
    gym: 0,
    activeThere: 0,
    draftThere: 0,
    activeHere: 0,
  }

  beforeAll(() => {
    db = tempDbPath()
    cwd = tempDir('belay-e2e-cwd')
  })

  test('first start creates the organization, the gym (name and time zone) and the admin from the environment', async () => {
    server = await startServer({ db, cwd, env })
    const logs = server.process.logs()
    expect(logs.find((l) => l.msg === 'first start: organization, gym and admin created')).toMatchObject({
      level: 'info',
      admin_email: ADMIN_EMAIL,
    })
    // The password came from the environment: it is neither generated nor echoed.
    expect(logs.some((l) => 'admin_password' in l)).toBe(false)
    expect(server.process.stderr).not.toContain(ADMIN_PASSWORD)
    expect(logs.find((l) => l.msg === 'listening')).toMatchObject({
      url: `http://127.0.0.1:${server.port}`,
      db,
      version: pkg.version,
    })
    // It runs from an empty directory and writes nothing there when the database lives elsewhere.
    expect(readdirSync(cwd)).toEqual([])

    token = await getToken(server.base, ADMIN_EMAIL, ADMIN_PASSWORD)
    expect(token).toMatch(/^[0-9a-f]{40}$/)

    const gyms = await request(server.base, 'GET', '/api/gyms/', { token })
    expect(gyms.status).toBe(200)
    expect(gyms.headers.get('content-type')).toContain('application/json')
    expect(gyms.body).toEqual(page([gymBody(server.base, 1, GYM, 'America/Denver')]))
    firstGymCreatedAt = gyms.body.results[0].created_at
  })

  test('get-token answers the exact DRF bodies over HTTP', async () => {
    const ok = await request(server.base, 'POST', '/api/get-token/', {
      json: { username: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD },
    })
    expect(ok.status).toBe(200)
    expect(Object.keys(ok.body)).toEqual(['token'])

    const wrong = await request(server.base, 'POST', '/api/get-token/', {
      json: { username: ADMIN_EMAIL, password: 'not-the-password' },
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] })

    const anonymous = await request(server.base, 'GET', '/api/gyms/')
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toBe('Token')
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' })
  })

  test('the admin creates a second gym and event types (201)', async () => {
    const gym = await request(server.base, 'POST', '/api/gyms/', {
      token,
      json: { name: 'Flatirons South', time_zone: 'America/Denver', capacity: 120 },
    })
    expect(gym.status).toBe(201)
    expect(gym.body).toEqual({
      ...gymBody(server.base, 2, 'Flatirons South', 'America/Denver'),
      capacity: 120,
    })
    created.gym = gym.body.id

    const post = async (name: string, gymId: number, status: string) => {
      const res = await request(server.base, 'POST', '/api/event-types/', {
        token,
        json: { name, gym_id: gymId, status },
      })
      expect(res.status).toBe(201)
      return res.body
    }
    const active = await post('Intro to Bouldering', created.gym, 'ACT')
    expect(active).toEqual(
      eventTypeBody(server.base, {
        id: active.id,
        name: 'Intro to Bouldering',
        gym_id: created.gym,
        gym_name: 'Flatirons South',
        status: 'ACT',
      }),
    )
    created.activeThere = active.id
    created.draftThere = (await post('Lead Clinic', created.gym, 'DRA')).id
    created.activeHere = (await post('Youth Team', 1, 'ACT')).id
    expect(new Set([created.activeThere, created.draftThere, created.activeHere]).size).toBe(3)
  })

  test('event types filter by gym_id and status (?gym_id=<new gym>&status=act)', async () => {
    const res = await request(server.base, 'GET', `/api/event-types/?gym_id=${created.gym}&status=act`, {
      token,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      page([
        eventTypeBody(server.base, {
          id: created.activeThere,
          name: 'Intro to Bouldering',
          gym_id: created.gym,
          gym_name: 'Flatirons South',
          status: 'ACT',
        }),
      ]),
    )

    const all = await request(server.base, 'GET', '/api/event-types/', { token })
    expect(all.body.count).toBe(3)
    const byGym = await request(server.base, 'GET', `/api/event-types/?gym_id=${created.gym}`, { token })
    expect(byGym.body.results.map((e: { id: number }) => e.id)).toEqual([
      created.activeThere,
      created.draftThere,
    ])

    const bad = await request(server.base, 'GET', '/api/event-types/?gym_id=south', { token })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ gym_id: ['Enter a number.'] })
  })

  test('SIGTERM stops the first run cleanly', async () => {
    expect(await server.stop()).toBe(0)
    expect(server.process.logs().map((l) => l.msg)).toContain('stopped')
  })

  test('after a restart on the same database the data is there and the token still works', async () => {
    server = await startServer({ db, cwd, env })
    const messages = server.process.logs().map((l) => l.msg)
    expect(messages.filter((m) => m.startsWith('first start'))).toEqual([])
    expect(messages).not.toContain('migrations applied')
    expect(server.process.stderr).not.toContain('admin_password')

    const gyms = await request(server.base, 'GET', '/api/gyms/', { token })
    expect(gyms.status).toBe(200)
    expect(gyms.body).toEqual(
      page([
        gymBody(server.base, 1, GYM, 'America/Denver'),
        { ...gymBody(server.base, 2, 'Flatirons South', 'America/Denver'), capacity: 120 },
      ]),
    )
    expect(gyms.body.results[0].created_at).toBe(firstGymCreatedAt)

    const filtered = await request(server.base, 'GET', `/api/event-types/?gym_id=${created.gym}&status=ACT`, {
      token,
    })
    expect(filtered.status).toBe(200)
    expect(filtered.body.results.map((e: { id: number }) => e.id)).toEqual([created.activeThere])
    expect((await request(server.base, 'GET', '/api/event-types/', { token })).body.count).toBe(3)

    // The admin still logs in with the password from the first start.
    expect(await getToken(server.base, ADMIN_EMAIL, ADMIN_PASSWORD)).toMatch(/^[0-9a-f]{40}$/)
  })

  test('the restart created no second organization, gym or admin', async () => {
    const users = await request(server.base, 'GET', '/api/users/', { token })
    expect(users.status).toBe(200)
    expect(users.body).toMatchObject({ count: 1, next: null, previous: null })
    expect(users.body.results).toHaveLength(1)
    expect(users.body.results[0]).toMatchObject({
      id: 1,
      url: `${server.base}/api/users/1/`,
      email: ADMIN_EMAIL,
      default_gym_id: 1,
      default_gym_name: GYM,
      is_active: true,
      is_organization_admin: true,
      has_password: true,
    })

    const org = await request(server.base, 'GET', '/api/organization/', { token })
    expect(org.status).toBe(200)
    expect(org.body).toMatchObject({ name: GYM, time_zone: 'America/Denver' })

    const gyms = await request(server.base, 'GET', '/api/gyms/', { token })
    expect(gyms.body.count).toBe(2)
  })
})

describe('first start without admin settings', () => {
  let db: string
  let password: string

  beforeAll(() => {
    db = tempDbPath()
  })

  afterEach(stopAll)

  test('logs a random password for admin@localhost once, as one JSON log line, and it logs in', async () => {
    const server = await startServer({ db })
    const withPassword = server.process.logs().filter((l) => 'admin_password' in l)
    expect(withPassword).toHaveLength(1)
    const line = withPassword[0]!
    expect(line).toMatchObject({ level: 'info', admin_email: 'admin@localhost' })
    expect(typeof line.admin_password).toBe('string')
    password = line.admin_password as string
    expect(password.length).toBeGreaterThanOrEqual(12)
    expect(server.process.stderr.split(password)).toHaveLength(2) // printed exactly once

    const token = await getToken(server.base, 'admin@localhost', password)
    const gyms = await request(server.base, 'GET', '/api/gyms/', { token })
    expect(gyms.body).toEqual(page([gymBody(server.base, 1, 'My Gym', 'UTC')]))
    expect(await server.stop()).toBe(0)
  })

  test('a second start logs no password, and the first one still logs in', async () => {
    expect(password).toBeString()
    const server = await startServer({ db })
    expect(server.process.logs().some((l) => 'admin_password' in l)).toBe(false)
    expect(server.process.stderr).not.toContain(password)
    expect(await getToken(server.base, 'admin@localhost', password)).toMatch(/^[0-9a-f]{40}$/)
  })

  test('two different first starts generate different passwords', async () => {
    const other = await startServer()
    const line = other.process.logs().find((l) => 'admin_password' in l)
    expect(line?.admin_password).toBeString()
    expect(line?.admin_password).not.toBe(password)
  })
})

describe('stopping', () => {
  afterEach(stopAll)

  test('SIGTERM: exit code 0, "stopping" then "stopped" logged, the port closed', async () => {
    const server = await startServer()
    expect(await server.stop('SIGTERM')).toBe(0)
    expect(server.process.signalCode).toBeNull()
    const logs = server.process.logs()
    const stopping = logs.findIndex((l) => l.msg === 'stopping')
    const stopped = logs.findIndex((l) => l.msg === 'stopped')
    expect(logs[stopping]).toMatchObject({ level: 'info', signal: 'SIGTERM' })
    expect(stopped).toBeGreaterThan(stopping)
    expect(stopping).toBeGreaterThan(-1)
    await expect(fetch(`${server.base}/healthz`)).rejects.toThrow()
  })

  test('SIGINT (Ctrl-C): exit code 0 and "stopped" logged', async () => {
    const server = await startServer()
    expect(await server.stop('SIGINT')).toBe(0)
    const logs = server.process.logs()
    expect(logs.find((l) => l.msg === 'stopping')).toMatchObject({ signal: 'SIGINT' })
    expect(logs.map((l) => l.msg)).toContain('stopped')
  })
})

describe('a running server', () => {
  let server: Server
  let token: string

  beforeAll(async () => {
    server = await startServer({
      env: { BELAY_ADMIN_EMAIL: 'desk@gym.example', BELAY_ADMIN_PASSWORD: 'front-desk-pass' },
      args: ['--health-min-free-mb', '0.5', '--health-max-outbox-age-minutes', '1.5'],
    })
    token = await getToken(server.base, 'desk@gym.example', 'front-desk-pass')
  })

  afterAll(async () => {
    await server?.process.stop()
  })

  test("/healthz answers without a token, with the thresholds serve's settings gave", async () => {
    const res = await request(server.base, 'GET', '/healthz')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: 'ok',
      database: 'ok',
      version: pkg.version,
      checks: expect.objectContaining({
        database_writable: 'ok',
        disk: 'ok',
        disk_min_free_bytes: 512 * 1024,
        outbox: 'ok',
        outbox_max_age_seconds: 90,
      }),
      failing: [],
    })
    const requestId = res.headers.get('x-request-id')
    // stderr arrives through a pipe: give the line a moment to come through.
    for (let i = 0; i < 50 && !server.process.logs().some((l) => l.request_id === requestId); i++)
      await Bun.sleep(20)
    expect(server.process.logs().find((l) => l.request_id === requestId)).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/healthz',
      status: 200,
    })
  })

  test("/metrics answers an admin's token in Prometheus's text format, counting the requests served", async () => {
    expect((await request(server.base, 'GET', '/metrics')).status).toBe(401)
    expect((await request(server.base, 'GET', '/healthz')).status).toBe(200)
    const res = await request(server.base, 'GET', '/metrics', { token })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const lines = res.text.split('\n')
    for (const line of [
      /^belay_http_requests_total\{method="POST",route="\/api\/get-token\/",status="200"\} [1-9]\d*$/,
      /^belay_http_requests_total\{method="GET",route="\/healthz",status="200"\} [1-9]\d*$/,
      /^belay_http_requests_total\{method="GET",route="\/metrics",status="401"\} [1-9]\d*$/,
      /^belay_http_request_duration_seconds_count\{method="GET",route="\/healthz"\} [1-9]\d*$/,
      /^belay_wal_size_bytes \d+$/,
      /^belay_disk_free_bytes [1-9]\d*$/,
      new RegExp(`^belay_build_info\\{version="${pkg.version.replace(/\./g, '\\.')}"\\} 1$`),
    ]) {
      expect({ line, found: lines.some((l) => line.test(l)) }).toEqual({ line, found: true })
    }
  })

  test('/swagger is an HTML page that loads Swagger UI from the box itself (works offline)', async () => {
    const res = await request(server.base, 'GET', '/swagger')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect(res.text).toContain('/swagger/assets/swagger-ui-bundle.js')
    expect(res.text).toContain('/swagger/assets/swagger-ui.css')
    expect(res.text).not.toMatch(/https?:\/\/(cdn\.jsdelivr\.net|unpkg\.com|cdnjs\.)/)
  })

  test('/swagger/assets serves the embedded Swagger UI script and stylesheet, byte for byte', async () => {
    for (const [file, type] of [
      ['swagger-ui-bundle.js', 'javascript'],
      ['swagger-ui.css', 'text/css'],
    ] as const) {
      const res = await fetch(`${server.base}/swagger/assets/${file}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain(type)
      const served = new Uint8Array(await res.arrayBuffer())
      const shipped = await Bun.file(join(ROOT, 'node_modules/swagger-ui-dist', file)).bytes()
      expect(served.length).toBe(shipped.length)
      expect(Bun.hash(served)).toBe(Bun.hash(shipped))
    }
  })

  test('/swagger/json is the OpenAPI document with the Token scheme', async () => {
    const res = await request(server.base, 'GET', '/swagger/json')
    expect(res.status).toBe(200)
    expect(res.body.openapi).toMatch(/^3\./)
    expect(res.body).toMatchObject({
      info: { title: 'Belay API', version: pkg.version },
      components: { securitySchemes: { Token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    })
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/get-token/', '/api/gyms/', '/api/event-types/']),
    )
  })

  test('/swagger/json describes the request bodies an integrator must send', async () => {
    const doc = (await request(server.base, 'GET', '/swagger/json')).body
    for (const path of ['/api/get-token/', '/api/gyms/', '/api/event-types/']) {
      const content = doc.paths[path].post.requestBody?.content ?? {}
      expect({ path, types: Object.keys(content) }).toEqual({
        path,
        types: expect.arrayContaining(['application/json']),
      })
    }
    const resolve = (schema: any) =>
      schema?.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema
    const gymSchema = resolve(doc.paths['/api/gyms/'].post.requestBody.content['application/json'].schema)
    expect(gymSchema?.required).toEqual(expect.arrayContaining(['name', 'time_zone']))
  })

  const shell = JSON.stringify({ name: 'Edge', time_zone: 'UTC', scheduler_landing_page_text: '' })

  /** A gym body padded (in the landing page text) to exactly `bytes` bytes of JSON. */
  function gymJsonOfSize(bytes: number): string {
    const text = JSON.stringify({
      name: 'Edge',
      time_zone: 'UTC',
      scheduler_landing_page_text: 'x'.repeat(bytes - shell.length),
    })
    expect(Buffer.byteLength(text)).toBe(bytes)
    return text
  }

  const postRaw = (body: string) =>
    request(server.base, 'POST', '/api/gyms/', {
      token,
      body,
      headers: { 'content-type': 'application/json' },
    })

  test('a body of exactly 1 MiB is accepted', async () => {
    const res = await postRaw(gymJsonOfSize(MiB))
    expect(res.status).toBe(201)
    expect(res.body.scheduler_landing_page_text).toHaveLength(MiB - shell.length)
    expect(res.body.name).toBe('Edge')
  })

  test('a body one byte over 1 MiB gets 413 with the DRF body', async () => {
    const res = await postRaw(gymJsonOfSize(MiB + 1))
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ detail: 'Request body is too large.' })
  })

  test('a 2 MiB body gets 413 with the DRF body', async () => {
    const res = await postRaw(gymJsonOfSize(2 * MiB))
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ detail: 'Request body is too large.' })
  })

  test('the server still answers after the oversized bodies', async () => {
    const gyms = await request(server.base, 'GET', '/api/gyms/?page_size=1', { token })
    expect(gyms.status).toBe(200)
    expect(gyms.body.count).toBe(2) // the first-start gym and the 1 MiB one; no 413 body got in
  })
})

describe('--public-url', () => {
  afterEach(stopAll)

  const credentials = { BELAY_ADMIN_EMAIL: 'it@gym.example', BELAY_ADMIN_PASSWORD: 'integrator-pass' }

  test('`--public-url https://desk.gym.example` makes every url field and page link use that origin', async () => {
    const server = await startServer({ env: credentials, args: ['--public-url', 'https://desk.gym.example'] })
    const token = await getToken(server.base, 'it@gym.example', 'integrator-pass')
    const created = await request(server.base, 'POST', '/api/gyms/', {
      token,
      json: { name: 'Annex', time_zone: 'UTC' },
    })
    expect(created.status).toBe(201)
    expect(created.body.url).toBe('https://desk.gym.example/api/gyms/2/')

    const res = await request(server.base, 'GET', '/api/gyms/?page_size=1', { token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      count: 2,
      next: 'https://desk.gym.example/api/gyms/?page_size=1&page=2',
      previous: null,
      results: [gymBody('https://desk.gym.example', 1, 'My Gym', 'UTC')],
    })
    const second = await request(server.base, 'GET', '/api/gyms/?page_size=1&page=2', { token })
    expect(second.body.previous).toBe('https://desk.gym.example/api/gyms/?page_size=1')
    expect(second.text).not.toContain('127.0.0.1')
  })

  test('BELAY_PUBLIC_URL does the same from the environment (path and trailing slash dropped)', async () => {
    const server = await startServer({
      env: { ...credentials, BELAY_PUBLIC_URL: 'https://desk.gym.example:8443/belay/' },
    })
    const token = await getToken(server.base, 'it@gym.example', 'integrator-pass')
    const res = await request(server.base, 'GET', '/api/users/', { token })
    expect(res.status).toBe(200)
    expect(res.body.results[0]).toMatchObject({
      url: 'https://desk.gym.example:8443/api/users/1/',
      default_gym_url: 'https://desk.gym.example:8443/api/gyms/1/',
    })
  })

  test('without it, url fields use the host the client used', async () => {
    const server = await startServer({ env: credentials })
    const token = await getToken(server.base, 'it@gym.example', 'integrator-pass')
    const res = await request(server.base, 'GET', '/api/gyms/1/', { token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(gymBody(server.base, 1, 'My Gym', 'UTC'))
  })
})

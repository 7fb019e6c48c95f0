import { createApp, type App } from '../../src/app.ts'
import { LoginGate } from '../../src/core/auth/login-gate.ts'
import type { Connection } from '../../src/db/connection.ts'
import { depsFor as srcDepsFor, type Deps, type DepsOptions as SrcDepsOptions } from '../../src/deps.ts'
import { fixedClock, type Clock } from '../../src/lib/clock.ts'
import { openMigratedMemory } from './migrated-memory.ts'
import { checkResponse } from './response-check.ts'

export const ORIGIN = 'http://localhost'
export const START = '2026-11-22T15:04:05.123Z'
/** START plus one minute: the clock after `t.clock.advance(60_000)`. */
export const ONE_MINUTE_LATER = '2026-11-22T15:05:05.123Z'

export interface TestResponse {
  status: number
  headers: Headers
  /** Parsed JSON when the response is JSON, else the text. */
  body: any
}

export interface RequestOptions {
  token?: string
  /** A JSON body (stringified here), or a raw string sent as-is. */
  body?: unknown
  headers?: Record<string, string>
  /** The client's address as the server sees it (`server.requestIP`); default `127.0.0.1`. */
  clientAddress?: string
}

/** What a test may set of the app's Deps (src/deps.ts `depsFor`). */
export type TestAppOptions = Omit<SrcDepsOptions, 'reader' | 'version' | 'loginGate'>

export type DepsOptions = Omit<SrcDepsOptions, 'loginGate'>

/**
 * The API's Deps around an open connection, as tests and benchmarks build them (src/deps.ts), with
 * refusals at the login gate answered at once: a test waits for nothing.
 */
export function depsFor(
  connection: Pick<Connection, 'db' | 'sqlite'>,
  clock: Clock,
  options: DepsOptions = {},
): Deps {
  return srcDepsFor(connection, clock, { ...options, loginGate: new LoginGate(1, 4, 0) })
}

/**
 * The app with every response it gives, from `request` or from a test's own `app.handle(...)`,
 * checked against its OpenAPI document (response-check.ts): a mismatch fails the test.
 */
export function checkedApp(app: App): App {
  const handle = app.handle.bind(app)
  app.handle = async (request: Request) => {
    const response = await handle(request)
    await checkResponse({ handle, routes: app.routes }, request, response.clone() as Response)
    return response
  }
  return app
}

/**
 * A fresh, migrated in-memory database behind the whole API, with a fixed clock. Nothing listens:
 * requests go through `app.handle`, as Elysia recommends for tests.
 */
export async function makeTestApp(options: TestAppOptions & { databaseImage?: Uint8Array } = {}) {
  const { databaseImage, ...depsOptions } = options
  const connection = await openMigratedMemory(databaseImage)
  const clock = fixedClock(START)
  const deps = depsFor(connection, clock, depsOptions)
  const app = checkedApp(createApp(deps))
  // Nothing listens, so there is no server to tell a request's address: this one tells what the
  // test said. It is all of a server the handlers reach (the login throttle's client address).
  const addresses = new WeakMap<Request, string>()
  app.server = {
    requestIP: (request: Request) => ({
      address: addresses.get(request) ?? '127.0.0.1',
      family: 'IPv4',
      port: 0,
    }),
  } as unknown as NonNullable<App['server']>

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token) headers.authorization = `Token ${opts.token}`
    let body: string | undefined
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)
      headers['content-type'] ??= 'application/json'
    }
    const request = new Request(`${ORIGIN}${path}`, { method, headers, body })
    if (opts.clientAddress) addresses.set(request, opts.clientAddress)
    const response = await app.handle(request)
    const text = await response.text()
    const isJson = (response.headers.get('content-type') ?? '').includes('json')
    return {
      status: response.status,
      headers: response.headers,
      body: isJson && text ? JSON.parse(text) : text,
    }
  }

  return { app, deps, db: connection.db, clock, request, close: () => connection.close() }
}

export type TestApp = Awaited<ReturnType<typeof makeTestApp>>

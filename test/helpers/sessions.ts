import { expect } from 'bun:test'
import type { TestApp, TestResponse, RequestOptions } from './app.ts'

/** A browser session as a test holds it: the two cookies' values. */
export interface Session {
  key: string
  csrf: string
}

/** POST /api/login/ with a JSON body. */
export const sessionLogIn = (t: TestApp, username: string, password: string, opts: RequestOptions = {}) =>
  t.request('POST', '/api/login/', { ...opts, body: { username, password } })

/** The cookies a successful login set (the test fails when it did not). */
export function sessionFrom(res: TestResponse): Session {
  expect(res.status).toBe(200)
  const cookies = res.headers.getSetCookie()
  const value = (name: string) =>
    cookies
      .find((c) => c.startsWith(`${name}=`))!
      .split(';')[0]!
      .slice(name.length + 1)
  return { key: value('sessionid'), csrf: value('csrftoken') }
}

export async function logInSession(t: TestApp, username: string, password: string): Promise<Session> {
  return sessionFrom(await sessionLogIn(t, username, password))
}

/**
 * A request on a session: its cookie, and for an unsafe method its CSRF token in X-CSRFToken unless
 * `csrf` says otherwise (null: none sent).
 */
export function withSession(
  t: TestApp,
  session: Session,
  method: string,
  path: string,
  opts: RequestOptions & { csrf?: string | null } = {},
): Promise<TestResponse> {
  const { csrf, ...rest } = opts
  const headers: Record<string, string> = {
    cookie: `sessionid=${session.key}; csrftoken=${session.csrf}`,
    ...rest.headers,
  }
  const sent = csrf === undefined ? (['GET', 'HEAD'].includes(method) ? null : session.csrf) : csrf
  if (sent !== null) headers['x-csrftoken'] = sent
  return t.request(method, path, { ...rest, headers })
}

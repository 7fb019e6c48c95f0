import { describe, expect, test } from 'bun:test'
import { withRequestLog } from '../../src/http/request-log.ts'
import type { Logger } from '../../src/lib/log.ts'
import { useSeededApp } from '../helpers/seeded.ts'

function recordingLogger() {
  const lines: { msg: string; fields?: Record<string, unknown> }[] = []
  const record = (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields })
  const log: Logger = { info: record, warn: record, error: record }
  return { log, lines }
}

const t = useSeededApp()

describe('withRequestLog', () => {
  test('an authenticated request logs one line with its id, method, path, status, duration and user id', async () => {
    const { log, lines } = recordingLogger()
    const handle = withRequestLog(log, (request) => t.app.handle(request))
    const response = await handle(
      new Request('http://localhost/api/gyms/?search=secret', {
        headers: { authorization: `Token ${t.seed.adminToken}` },
      }),
    )
    expect(response.status).toBe(200)
    const requestId = response.headers.get('x-request-id')
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(lines).toEqual([
      {
        msg: 'request',
        fields: {
          request_id: requestId,
          method: 'GET',
          path: '/api/gyms/',
          status: 200,
          duration_ms: expect.any(Number),
          user_id: t.seed.admin.id,
        },
      },
    ])
    expect(JSON.stringify(lines)).not.toContain(t.seed.adminToken)
    expect(JSON.stringify(lines)).not.toContain('secret')
  })

  test('a login logs no password, and no user id', async () => {
    const { log, lines } = recordingLogger()
    const handle = withRequestLog(log, (request) => t.app.handle(request))
    const response = await handle(
      new Request('http://localhost/api/get-token/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'nobody@example.com', password: 'hunter2-very-secret' }),
      }),
    )
    expect(response.status).toBe(400)
    expect(lines).toEqual([
      {
        msg: 'request',
        fields: {
          request_id: response.headers.get('x-request-id'),
          method: 'POST',
          path: '/api/get-token/',
          status: 400,
          duration_ms: expect.any(Number),
        },
      },
    ])
    expect(JSON.stringify(lines)).not.toContain('hunter2')
  })
})

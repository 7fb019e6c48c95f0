import { describe, expect, test } from 'bun:test'
import { seedBasics } from '../helpers/factories.ts'
import { useTestApp } from '../helpers/seeded.ts'

const t = useTestApp()

describe('/healthz', () => {
  test('answers 200 without a token', async () => {
    const res = await t.request('GET', '/healthz')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.body).toEqual({ status: 'ok', database: 'ok', version: 'test' })
  })

  test('ignores an invalid token', async () => {
    await seedBasics(t.db)
    const res = await t.request('GET', '/healthz', { token: 'f'.repeat(40) })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok', database: 'ok', version: 'test' })
  })

  test('answers 503 when the database cannot be read', async () => {
    await t.close()
    const res = await t.request('GET', '/healthz')
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ status: 'unavailable', database: 'unreachable', version: 'test' })
  })
})

/**
 * Over-long URLs and headers against the built executable: only the real server shows whether its
 * own request-head limit lets them reach the app's JSON 414/431 (a test app has no such limit).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import {
  MAX_HEADER_BYTES,
  MAX_URL_BYTES,
  SERVER_HEADER_READ_LIMIT_BYTES,
} from '../../src/http/request-limits.ts'
import { removeTempDirs, request, startServer, stopAll, type Server } from './helpers.ts'

let server: Server

beforeAll(async () => {
  server = await startServer()
})

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

import { beforeAll, describe, expect, test } from 'bun:test'
import { useTestApp } from '../helpers/seeded.ts'

/*
 * The API's rules are written in the document the box serves at /swagger, beside the routes they
 * govern, so the docs page is the API's manual. Every operation therefore carries a description
 * beneath its summary: what it changes, when it refuses and with which message, its order and
 * filters.
 */

const t = useTestApp({ once: true })
let doc: any

beforeAll(async () => {
  const res = await t.request('GET', '/swagger/json')
  expect(res.status).toBe(200)
  doc = res.body
})

describe('OpenAPI descriptions', () => {
  test('every operation has a description beneath its summary', () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    )
    expect(operations.length).toBeGreaterThan(20)
    const without = operations
      .filter(
        ({ operation }) => typeof operation.description !== 'string' || operation.description.trim() === '',
      )
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
    expect(without).toEqual([])
  })

  test('every operation opens with who may call it, and says no token is needed exactly where none is asked', () => {
    const who =
      /^(Any staff user|Organization admins only|Staff users with `can_\w+`|Public|Anyone, without a token|No token needed)/
    const saysNoToken = /^(Public|Anyone, without a token|No token needed)/
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    )
    const name = ({ method, path }: { method: string; path: string }) => `${method.toUpperCase()} ${path}`
    expect(operations.filter(({ operation }) => !who.test(operation.description ?? '')).map(name)).toEqual([])
    const tokenless = operations.filter(({ operation }) => operation.security?.length === 0).map(name)
    expect(
      operations.filter(({ operation }) => saysNoToken.test(operation.description ?? '')).map(name),
    ).toEqual(tokenless)
    expect(tokenless.length).toBeGreaterThan(0)
  })

  test('the document opens with the conventions every collection shares', () => {
    expect(typeof doc.info.description).toBe('string')
    expect(doc.info.description.trim()).not.toBe('')
  })
})

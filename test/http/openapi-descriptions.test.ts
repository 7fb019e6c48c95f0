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

  test('the document opens with the conventions every collection shares', () => {
    expect(typeof doc.info.description).toBe('string')
    expect(doc.info.description.trim()).not.toBe('')
  })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia, t } from 'elysia'
import { getGym, listGyms } from '../../src/api/gyms/queries.ts'
import { GymOut } from '../../src/api/gyms/schema.ts'
import { serializeGym } from '../../src/api/gyms/serializer.ts'
import { collectionRoutes } from '../../src/http/crud.ts'
import { errorHandling } from '../../src/http/error-handler.ts'
import { defineFilters } from '../../src/http/filters.ts'
import { RouteIndex } from '../../src/http/route-index.ts'
import { makeTestApp, ORIGIN, type TestApp } from '../helpers/app.ts'
import { forbidden } from '../helpers/bodies.ts'
import { makeToken, makeUser, seedBasics, type Seed } from '../helpers/factories.ts'

/*
 * The CRUD helper's own behaviour, on a collection that exists only here: the gyms, written with
 * can_manage_members, with one action left at that permission and one that names its own.
 */

let testApp: TestApp
let seed: Seed
let app: { handle(request: Request): Promise<Response> }
const ran: string[] = []

beforeAll(async () => {
  testApp = await makeTestApp()
  seed = await seedBasics(testApp.db)
  app = new Elysia()
    .use(
      errorHandling({
        log: testApp.deps.log,
        routes: new RouteIndex(() => []),
        authenticate: async () => {},
      }),
    )
    .use(
      collectionRoutes(testApp.deps, {
        path: '/api/test-gyms',
        tag: 'Test',
        noun: 'gym',
        read: 'staff',
        write: 'can_manage_members',
        filters: defineFilters({}),
        output: GymOut,
        list: ({ deps }) => listGyms(deps.db),
        get: ({ deps }, id) => getGym(deps.db, id),
        serialize: serializeGym,
        actions: [
          {
            name: 'rename',
            summary: 'At the write permission',
            body: t.Object({}),
            run: async (_scope, row) => void ran.push(`rename ${row.id}`),
          },
          {
            name: 'audit',
            summary: 'At its own permission',
            permission: 'can_access_reports',
            body: t.Object({}),
            run: async (_scope, row) => void ran.push(`audit ${row.id}`),
          },
        ],
      }),
    )
})
afterAll(() => testApp.close())

async function post(path: string, token: string) {
  const response = await app.handle(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: '{}',
    }),
  )
  return { status: response.status, body: (await response.json()) as any }
}

describe('record actions', () => {
  test('an action without a permission of its own needs the write permission; one with it needs that', async () => {
    const members = await makeToken(testApp.db, await makeUser(testApp.db, { can_manage_members: 1 }))
    const reports = await makeToken(testApp.db, await makeUser(testApp.db, { can_access_reports: 1 }))
    const gym = `/api/test-gyms/${seed.gym.id}`
    ran.length = 0

    expect(await post(`${gym}/rename/`, reports)).toEqual({ status: 403, body: forbidden })
    expect(await post(`${gym}/audit/`, members)).toEqual({ status: 403, body: forbidden })
    const renamed = await post(`${gym}/rename/`, members)
    const audited = await post(`${gym}/audit/`, reports)

    expect([renamed.status, renamed.body.id, audited.status, audited.body.id]).toEqual([
      200,
      seed.gym.id,
      200,
      seed.gym.id,
    ])
    expect(ran).toEqual([`rename ${seed.gym.id}`, `audit ${seed.gym.id}`])
  })
})

describe('the document', () => {
  test("each operation's description opens with who may call it, then its own rules", () => {
    const documented = collectionRoutes(testApp.deps, {
      path: '/api/described-gyms',
      tag: 'Test',
      noun: 'gym',
      read: 'staff',
      write: 'admin',
      descriptions: { list: 'Ordered by id.', update: 'Changes only the fields sent.' },
      filters: defineFilters({}),
      output: GymOut,
      list: ({ deps }) => listGyms(deps.db),
      get: ({ deps }, id) => getGym(deps.db, id),
      serialize: serializeGym,
      replace: { body: t.Object({ name: t.String() }), run: async () => {} },
      actions: [
        {
          name: 'audit',
          summary: 'At its own permission',
          description: 'Records nothing.',
          permission: 'can_access_reports',
          body: t.Object({}),
          run: async () => {},
        },
      ],
    })
    const descriptions = Object.fromEntries(
      documented.routes.map((route) => [
        `${route.method} ${route.path}`,
        (route.hooks as { detail?: { description?: string } }).detail?.description,
      ]),
    )
    expect(descriptions).toEqual({
      'GET /api/described-gyms/': 'Any staff user.\n\nOrdered by id.',
      'GET /api/described-gyms/:id/': 'Any staff user.',
      'PUT /api/described-gyms/:id/': 'Organization admins only.',
      'PATCH /api/described-gyms/:id/': 'Organization admins only.\n\nChanges only the fields sent.',
      'POST /api/described-gyms/:id/audit/':
        'Staff users with `can_access_reports`, and organization admins.\n\nRecords nothing.',
    })
  })
})

import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import { blank, emptyPage, maxLength, notFound, onePage, required } from '../../helpers/bodies.ts'
import { countRows, makeEventCategory, makeEventType } from '../../helpers/factories.ts'
import {
  expectEachForbidden,
  expectEachNotFound,
  type RefusedPost,
  testEachNeedsToken,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
const staff = useStaff(t, 'events', 'members')

const PATH = '/api/event-categories/'
const count = () => countRows(t.db, 'event_categories')

/** The whole record the API answers for the factory's default category. */
function categoryBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/event-categories/${id}/`,
    name: 'Youth',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const valid = () => ({ name: 'Instruction' })

describe('/api/event-categories/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PUT', `${PATH}1/`],
    ['PATCH', `${PATH}1/`],
    ['DELETE', `${PATH}1/`],
  ] as const
  testEachNeedsToken(t, routes, valid())
})

describe('/api/event-categories/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: staff.events.token, body })

  const cases: RefusedPost[] = [
    ['no name', {}, { name: required }],
    ['a blank name', { name: '' }, { name: blank }],
    ['a name of 256 characters', { name: 'x'.repeat(256) }, { name: maxLength(255) }],
  ]
  testEachRefusedPost(cases, { post, count })

  test('PUT needs a name; a refused PATCH changes nothing', async () => {
    const category = await makeEventCategory(t.db)
    const put = await t.request('PUT', `${PATH}${category.id}/`, { token: staff.events.token, body: {} })
    expect(put.status).toBe(400)
    expect(put.body).toEqual({ name: required })
    const patch = await t.request('PATCH', `${PATH}${category.id}/`, {
      token: staff.events.token,
      body: { name: ' ' },
    })
    expect(patch.status).toBe(400)
    expect(patch.body).toEqual({ name: blank })
    const read = await t.request('GET', `${PATH}${category.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(categoryBody(category.id))
  })
})

describe('/api/event-categories/ 403', () => {
  test('a staff user without can_manage_events cannot write, though they read', async () => {
    const category = await makeEventCategory(t.db)
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.members.token],
      [
        ['POST', PATH, valid()],
        ['PUT', `${PATH}${category.id}/`, valid()],
        ['PATCH', `${PATH}${category.id}/`, valid()],
        ['DELETE', `${PATH}${category.id}/`],
      ],
    )
    expect(await count()).toBe(1)
    const read = await t.request('GET', `${PATH}${category.id}/`, { token: staff.members.token })
    expect(read.body).toEqual(categoryBody(category.id))
  })
})

describe('/api/event-categories/ 404', () => {
  test('an unknown id, and a removed category, are 404 to every method', async () => {
    const removed = await makeEventCategory(t.db, { is_removed: 1 })
    for (const id of [999, removed.id]) {
      await expectEachNotFound(t, staff.events.token, [
        ['GET', `${PATH}${id}/`],
        ['PUT', `${PATH}${id}/`, valid()],
        ['PATCH', `${PATH}${id}/`, valid()],
        ['DELETE', `${PATH}${id}/`],
      ])
    }
  })
})

describe('/api/event-categories/ success', () => {
  test('any staff user lists categories by name and reads one', async () => {
    const youth = await makeEventCategory(t.db)
    const fitness = await makeEventCategory(t.db, { name: 'Fitness' })
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.status).toBe(200)
    expect(list.body).toEqual(
      onePage([categoryBody(fitness.id, { name: 'Fitness' }), categoryBody(youth.id)]),
    )
    const read = await t.request('GET', `${PATH}${youth.id}/`, { token: t.seed.staffToken })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(categoryBody(youth.id))
  })

  test('POST by a can_manage_events user creates; PUT and PATCH rename', async () => {
    const res = await t.request('POST', PATH, { token: staff.events.token, body: valid() })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(categoryBody(res.body.id, { name: 'Instruction' }))
    t.clock.advance(60_000)
    const put = await t.request('PUT', `${PATH}${res.body.id}/`, {
      token: staff.events.token,
      body: { name: 'Lessons' },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(categoryBody(res.body.id, { name: 'Lessons', updated_at: ONE_MINUTE_LATER }))
    const patch = await t.request('PATCH', `${PATH}${res.body.id}/`, {
      token: t.seed.adminToken,
      body: { name: 'Courses' },
    })
    expect(patch.body).toEqual({ ...put.body, name: 'Courses' })
  })

  test('DELETE removes a category from the list and reads, but event types filed under it keep it', async () => {
    const category = await makeEventCategory(t.db)
    const eventType = await makeEventType(t.db)
    const filed = await t.request('PATCH', `/api/event-types/${eventType.id}/`, {
      token: staff.events.token,
      body: { category_ids: [category.id] },
    })
    expect(filed.body.category_ids).toEqual([category.id])

    const res = await t.request('DELETE', `${PATH}${category.id}/`, { token: staff.events.token })
    expect(res.status).toBe(204)
    expect(res.body).toBe('')
    expect(await count()).toBe(1)
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.body).toEqual(emptyPage)
    const read = await t.request('GET', `${PATH}${category.id}/`, { token: t.seed.staffToken })
    expect(read.status).toBe(404)
    expect(read.body).toEqual(notFound)
    const type = await t.request('GET', `/api/event-types/${eventType.id}/`, { token: t.seed.staffToken })
    expect(type.body.category_ids).toEqual([category.id])
  })
})

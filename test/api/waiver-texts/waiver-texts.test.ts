import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  forbidden,
  invalidInteger,
  maxValue,
  minValue,
  notFound,
  required,
} from '../../helpers/bodies.ts'
import { countRows } from '../../helpers/factories.ts'
import {
  expectEachNotAllowed,
  expectEachNotFound,
  testEachNeedsToken,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
const staff = useStaff(t, 'allButAdmin')

const PATH = '/api/waiver-texts/'
const versions = () => countRows(t.db, 'waiver_texts')
const post = (body: unknown, token = t.seed.adminToken) => t.request('POST', PATH, { token, body })

/** The whole record of version `id` as the admin seeded by useSeededApp wrote it. */
const version = (id: number, fields: Record<string, unknown> = {}) => ({
  id,
  url: `${ORIGIN}/api/waiver-texts/${id}/`,
  version: id,
  text: 'I climb at my own risk.',
  valid_for_days: 365,
  is_current: true,
  created_at: START,
  created_by_id: t.seed.admin.id,
  created_by_name: `${t.seed.admin.first_name} ${t.seed.admin.last_name}`.trim() || t.seed.admin.email,
  ...fields,
})

describe('/api/waiver-texts/ 401', () => {
  testEachNeedsToken(t, [
    ['GET', PATH],
    ['GET', `${PATH}current/`],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
  ])
})

describe('/api/waiver-texts/ 400', () => {
  testEachRefusedPost(
    [
      ['no text', { text: undefined }, { text: required }],
      ['a blank text', { text: '   ' }, { text: blank }],
      ['zero days', { valid_for_days: 0 }, { valid_for_days: minValue(1) }],
      ['more than ten years', { valid_for_days: 3661 }, { valid_for_days: maxValue(3660) }],
      ['days that are no number', { valid_for_days: 'a year' }, { valid_for_days: invalidInteger }],
    ],
    { post: (body) => post(body), count: versions, base: () => ({ text: 'I climb at my own risk.' }) },
  )
})

describe('/api/waiver-texts/ 403', () => {
  test('staff who are not admins, even with every permission, read but cannot write', async () => {
    const res = await post({ text: 'Mine.' }, staff.allButAdmin.token)
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: forbidden })
    expect(await versions()).toBe(0)
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.status).toBe(200)
  })
})

describe('/api/waiver-texts/ 404 and 405', () => {
  test('before any text, current/ and an unknown version are 404', async () => {
    await expectEachNotFound(t, t.seed.staffToken, [
      ['GET', `${PATH}current/`],
      ['GET', `${PATH}1/`],
    ])
  })

  test('a version is never edited or removed', async () => {
    await post({ text: 'I climb at my own risk.' })
    await expectEachNotAllowed(t, t.seed.adminToken, [
      ['PUT', `${PATH}1/`, { text: 'Changed.' }],
      ['PATCH', `${PATH}1/`, { text: 'Changed.' }],
      ['DELETE', `${PATH}1/`],
    ])
    expect((await t.request('GET', `${PATH}1/`, { token: t.seed.staffToken })).body.text).toBe(
      'I climb at my own risk.',
    )
  })
})

describe('/api/waiver-texts/ versions', () => {
  test('each text is a new version, current from then on; the old ones stay', async () => {
    const first = await post({ text: '  I climb at my own risk.  ', valid_for_days: 365 })
    expect({ status: first.status, body: first.body }).toEqual({ status: 201, body: version(1) })
    t.clock.advance(60_000)
    const second = await post({ text: 'Version two.' })
    expect(second.body).toEqual(
      version(2, { text: 'Version two.', valid_for_days: null, created_at: ONE_MINUTE_LATER }),
    )
    const current = await t.request('GET', `${PATH}current/`, { token: t.seed.staffToken })
    expect(current.body).toEqual(second.body)
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.body).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [second.body, version(1, { is_current: false })],
    })
  })
})

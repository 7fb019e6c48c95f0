import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  cannotChange,
  doesNotExist,
  invalidBoolean,
  invalidInteger,
  invalidNumber,
  maxLength,
  minValue,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { countRows, makeGym } from '../../helpers/factories.ts'
import { makeAddOn, makeTaxRate } from '../../helpers/product-factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  listIds,
  type RefusedPost,
  testEachNeedsToken,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
/** Every can_* flag but not an organization admin: product types are admin-only. */
const staff = useStaff(t, 'allButAdmin')

const PATH = '/api/add-ons/'
const count = () => countRows(t.db, 'add_ons')
const slugMessage = ['Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.']
const colorMessage = ['Enter a colour as 6 hexadecimal digits, such as 1E90FF, or leave it empty.']

function addOnBody(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/add-ons/${id}/`,
    name: 'Locker',
    fee: '0.00',
    is_visible: true,
    icon_color_hex: '',
    icon_initials: '',
    revenue_account_codes: {},
    tax_rate_id: null,
    tax_rate_per_location: null,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const makeLocker = () => makeAddOn(t.db, { id: 'locker', name: 'Locker' })

describe('/api/add-ons/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}locker/`],
    ['POST', PATH],
    ['PUT', `${PATH}locker/`],
    ['PATCH', `${PATH}locker/`],
  ] as const
  testEachNeedsToken(t, routes, { name: '' })
})

describe('/api/add-ons/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: t.seed.adminToken, body })

  test('an empty body: name is required', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required })
    expect(await count()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank name', { name: '' }, { name: blank }],
    ['an id with a space', { id: 'chalk bag' }, { id: slugMessage }],
    ['an empty id', { id: '' }, { id: slugMessage }],
    ['an id of 65 characters', { id: 'a'.repeat(65) }, { id: maxLength(64) }],
    ['fee -1', { fee: -1 }, { fee: minValue(0) }],
    ['fee "5,00"', { fee: '5,00' }, { fee: invalidNumber }],
    ['fee null', { fee: null }, { fee: notNull }],
    ['is_visible "x"', { is_visible: 'x' }, { is_visible: invalidBoolean }],
    ['icon_color_hex "#FF0000"', { icon_color_hex: '#FF0000' }, { icon_color_hex: colorMessage }],
    ['icon_initials of 5 characters', { icon_initials: 'ABCDE' }, { icon_initials: maxLength(4) }],
    ['tax_rate_id "x"', { tax_rate_id: 'x' }, { tax_rate_id: invalidInteger }],
    ['tax_rate_id 99 (no such tax rate)', { tax_rate_id: 99 }, { tax_rate_id: doesNotExist(99) }],
    [
      'revenue_account_codes as a list',
      { revenue_account_codes: ['4000'] },
      { revenue_account_codes: ['Expected a dictionary of items but got type "list".'] },
    ],
    ['revenue_account_codes null', { revenue_account_codes: null }, { revenue_account_codes: notNull }],
    [
      'revenue_account_codes keyed by a name',
      { revenue_account_codes: { downtown: '4000' } },
      { revenue_account_codes: ['"downtown" is not a location id.'] },
    ],
    [
      'revenue_account_codes for an unknown gym',
      { revenue_account_codes: { '999': '4000' } },
      { revenue_account_codes: doesNotExist(999) },
    ],
    [
      'a numeric revenue account code',
      { revenue_account_codes: { '1': 4000 } },
      { revenue_account_codes: ['Location 1: the revenue account code must be a string.'] },
    ],
    [
      'tax_rate_per_location as a string',
      { tax_rate_per_location: '0.08' },
      { tax_rate_per_location: ['Expected a dictionary of items but got type "str".'] },
    ],
    [
      'a negative tax rate',
      { tax_rate_per_location: { '1': '-0.01' } },
      { tax_rate_per_location: ['Location 1: Ensure this value is greater than or equal to 0.'] },
    ],
    [
      'a tax rate with 5 decimal places',
      { tax_rate_per_location: { '1': 0.08255 } },
      { tax_rate_per_location: ['Location 1: Ensure that there are no more than 4 decimal places.'] },
    ],
  ]

  testEachRefusedPost(cases, { post, count, base: () => ({ name: 'Locker' }) })

  test('a duplicate id is 400', async () => {
    await makeLocker()
    const res = await post({ id: 'locker', name: 'Second locker' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ id: ['add-on with this id already exists.'] })
    expect(await count()).toBe(1)
  })

  test('every failing field in one body', async () => {
    const res = await post({ id: 'a b', name: '', fee: 'x', revenue_account_codes: { '999': 1 } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      id: slugMessage,
      name: blank,
      fee: invalidNumber,
      revenue_account_codes: [
        'Invalid pk "999" - object does not exist.',
        'Location 999: the revenue account code must be a string.',
      ],
    })
  })

  test('PUT and PATCH cannot change the id; a refused change stores nothing', async () => {
    await makeLocker()
    t.clock.advance(60_000)
    for (const [method, body] of [
      ['PUT', { id: 'big-locker', name: 'Big locker' }],
      ['PATCH', { id: 'big-locker', fee: '-1' }],
    ] as const) {
      const res = await t.request(method, `${PATH}locker/`, { token: t.seed.adminToken, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(
        method === 'PUT' ? { id: cannotChange } : { id: cannotChange, fee: minValue(0) },
      )
    }
    const read = await t.request('GET', `${PATH}locker/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(addOnBody('locker'))
  })

  test('PUT needs the name', async () => {
    await makeLocker()
    const res = await t.request('PUT', `${PATH}locker/`, { token: t.seed.adminToken, body: {} })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required })
  })
})

describe('/api/add-ons/ 403', () => {
  test('staff users without admin cannot write', async () => {
    await makeLocker()
    const body = { name: 'Towel' }
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.allButAdmin.token],
      [
        ['POST', PATH, body],
        ['PUT', `${PATH}locker/`, body],
        ['PATCH', `${PATH}locker/`, body],
      ],
    )
    expect(await count()).toBe(1)
  })
})

describe('/api/add-ons/ 404 and 405', () => {
  test('GET, PUT and PATCH of an unknown id are 404', async () => {
    const calls = ['GET', 'PUT', 'PATCH'].map(
      (method) => [method, `${PATH}nothing-here/`, { name: 'X' }] as const,
    )
    await expectEachNotFound(t, t.seed.adminToken, calls)
  })

  test('DELETE is 405', async () => {
    await makeLocker()
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', `${PATH}locker/`]])
  })
})

describe('/api/add-ons/ success', () => {
  test('any staff user lists (by name) and reads add-ons', async () => {
    await makeLocker()
    await makeAddOn(t.db, { id: 'chalk', name: 'Chalk', fee_cents: 500 })
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.status).toBe(200)
    expect(list.body).toEqual(
      onePage([addOnBody('chalk', { name: 'Chalk', fee: '5.00' }), addOnBody('locker')]),
    )
    const read = await t.request('GET', `${PATH}locker/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(addOnBody('locker'))
  })

  test('POST without an id makes a slug of the name, unique with a suffix', async () => {
    const first = await t.request('POST', PATH, {
      token: t.seed.adminToken,
      body: { name: 'Chalk & Towel Service' },
    })
    expect(first.status).toBe(201)
    expect(first.body).toEqual(addOnBody('chalk-towel-service', { name: 'Chalk & Towel Service' }))
    const second = await t.request('POST', PATH, {
      token: t.seed.adminToken,
      body: { name: 'Chalk & towel service!' },
    })
    expect(second.body).toEqual(addOnBody('chalk-towel-service-2', { name: 'Chalk & towel service!' }))
    const accents = await t.request('POST', PATH, { token: t.seed.adminToken, body: { name: 'Café Crème' } })
    expect(accents.body.id).toBe('cafe-creme')
    const symbols = await t.request('POST', PATH, { token: t.seed.adminToken, body: { name: '★★★' } })
    expect(symbols.body.id).toBe('add-on')
  })

  test('POST with every field', async () => {
    const gym = t.seed.gym.id
    const taxRate = await makeTaxRate(t.db)
    const body = {
      id: 'Towel_Service-1',
      name: 'Towel Service',
      fee: 12.5,
      is_visible: false,
      icon_color_hex: '1e90ff',
      icon_initials: 'TS',
      revenue_account_codes: { [gym]: '4100-TOWEL' },
      tax_rate_id: taxRate.id,
      tax_rate_per_location: { [gym]: '0.0825' },
    }
    const res = await t.request('POST', PATH, { token: t.seed.adminToken, body })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(addOnBody('Towel_Service-1', { ...body, fee: '12.50' }))
    const read = await t.request('GET', `${PATH}Towel_Service-1/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
  })

  test('PUT and PATCH change the sent fields; the id may be sent unchanged', async () => {
    const uptown = await makeGym(t.db, { name: 'Uptown' })
    await makeAddOn(t.db, { id: 'locker', name: 'Locker', tax_rate_per_location: '{"1":"0.05"}' })
    t.clock.advance(60_000)
    const put = await t.request('PUT', `${PATH}locker/`, {
      token: t.seed.adminToken,
      body: { id: 'locker', name: 'Day Locker', fee: '3', revenue_account_codes: { [uptown.id]: '4200' } },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      addOnBody('locker', {
        name: 'Day Locker',
        fee: '3.00',
        revenue_account_codes: { [uptown.id]: '4200' },
        tax_rate_per_location: { '1': '0.05' },
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const patch = await t.request('PATCH', `${PATH}locker/`, {
      token: t.seed.adminToken,
      body: { tax_rate_per_location: null, tax_rate_id: null, is_visible: false },
    })
    expect(patch.status).toBe(200)
    expect(patch.body).toEqual({ ...put.body, tax_rate_per_location: null, is_visible: false })
  })

  test('filters: name (substring) and is_visible', async () => {
    await makeLocker()
    await makeAddOn(t.db, { id: 'hidden-locker', name: 'Staff Locker', is_visible: 0 })
    await makeAddOn(t.db, { id: 'chalk', name: 'Chalk' })
    const ids = listIds(t, PATH)
    expect(await ids('name=LOCKER')).toEqual(['locker', 'hidden-locker'])
    expect(await ids('is_visible=false')).toEqual(['hidden-locker'])
    expect(await ids('is_visible=true')).toEqual(['chalk', 'locker'])
  })
})

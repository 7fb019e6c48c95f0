import { beforeEach, describe, expect, test } from 'bun:test'
import { doesNotExist, invalidChoice, maxLength, required } from '../../helpers/bodies.ts'
import { makeEventType } from '../../helpers/factories.ts'
import { makeEntryPassType, makeMembershipType, makeVoucherPack } from '../../helpers/product-factories.ts'
import { expectEachForbidden, testEachNeedsToken, useSeededApp, useStaff } from '../../helpers/seeded.ts'

/*
 * GET and PUT /api/organization/quick-sales/: the products the Sell screen offers as one-click
 * buttons. Any staff user reads them; admins replace the whole list.
 */

const t = useSeededApp()
const staff = useStaff(t, 'allButAdmin')

const PATH = '/api/organization/quick-sales/'

let ids: { dayPass: number; retired: number; monthly: number; pack: number }
beforeEach(async () => {
  const dayPass = await makeEntryPassType(t.db, { name: 'Day Pass' })
  const retired = await makeEntryPassType(t.db, { name: 'Old Punch Card', status: 'RET' })
  const monthly = await makeMembershipType(t.db, { name: 'Monthly Unlimited' })
  const yoga = await makeEventType(t.db)
  const pack = await makeVoucherPack(t.db, { event_type_id: yoga.id })
  ids = { dayPass: dayPass.id, retired: retired.id, monthly: monthly.id, pack: pack.id }
})

const read = (token = t.seed.staffToken) => t.request('GET', PATH, { token })
const replace = (body: unknown) => t.request('PUT', PATH, { token: t.seed.adminToken, body })

describe('/api/organization/quick-sales/ 401, 403', () => {
  testEachNeedsToken(t, [
    ['GET', PATH],
    ['PUT', PATH],
  ])

  test('only an admin changes the buttons, whatever their flags', async () => {
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.allButAdmin.token],
      [['PUT', PATH, { quick_sales: [] }]],
    )
  })
})

describe('PUT /api/organization/quick-sales/ 400: nothing changes', () => {
  const refused: Array<[string, () => unknown, () => unknown]> = [
    ['no list', () => ({}), () => ({ quick_sales: required })],
    [
      'more than 8 buttons',
      () => ({
        quick_sales: Array.from({ length: 9 }, () => ({ purchase_type: 'EPA', product_id: ids.dayPass })),
      }),
      () => ({ quick_sales: ['Ensure this field has no more than 8 elements.'] }),
    ],
    [
      'each refused button at its index, {} for those that passed',
      () => ({
        quick_sales: [
          { purchase_type: 'EPA', product_id: ids.dayPass },
          { purchase_type: 'EPA', product_id: 99 },
          { purchase_type: 'EPA', product_id: ids.retired },
          { purchase_type: 'GEN', product_id: 1 },
          { purchase_type: 'MIN', product_id: ids.monthly, label: 'x'.repeat(41) },
          'Day Pass',
        ],
      }),
      () => ({
        quick_sales: [
          {},
          { product_id: doesNotExist(99) },
          { product_id: ['Only an active product can be sold.'] },
          { purchase_type: invalidChoice('GEN') },
          { label: maxLength(40) },
          { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
        ],
      }),
    ],
    [
      'a product id of another type names nothing',
      () => ({ quick_sales: [{ purchase_type: 'VPO', product_id: ids.monthly + 1000 }] }),
      () => ({ quick_sales: [{ product_id: doesNotExist(ids.monthly + 1000) }] }),
    ],
  ]
  for (const [name, body, expected] of refused) {
    test(name, async () => {
      expect(
        (await replace({ quick_sales: [{ purchase_type: 'MIN', product_id: ids.monthly }] })).status,
      ).toBe(200)
      const res = await replace(body())
      expect(res.status).toBe(400)
      expect(res.body).toEqual(expected())
      expect((await read()).body).toEqual({
        quick_sales: [{ purchase_type: 'MIN', product_id: ids.monthly, label: 'Monthly Unlimited' }],
      })
    })
  }
})

describe('GET and PUT /api/organization/quick-sales/', () => {
  test('none at first', async () => {
    const res = await read()
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ quick_sales: [] })
  })

  test('an admin sets the buttons in order, each labelled or named after its product; [] clears them', async () => {
    const res = await replace({
      quick_sales: [
        { purchase_type: 'EPA', product_id: ids.dayPass, label: '  Day pass  ' },
        { purchase_type: 'VPO', product_id: ids.pack },
        { purchase_type: 'MIN', product_id: String(ids.monthly), label: 'Monthly' },
      ],
    })
    const expected = {
      quick_sales: [
        { purchase_type: 'EPA', product_id: ids.dayPass, label: 'Day pass' },
        { purchase_type: 'VPO', product_id: ids.pack, label: 'Yoga 5-pack' },
        { purchase_type: 'MIN', product_id: ids.monthly, label: 'Monthly' },
      ],
    }
    expect(res.status).toBe(200)
    expect(res.body).toEqual(expected)
    expect((await read(staff.allButAdmin.token)).body).toEqual(expected)
    // A product retired later keeps its button: the desk shows it as not for sale.
    await t.db.updateTable('entry_pass_types').set({ status: 'RET' }).where('id', '=', ids.dayPass).execute()
    expect((await read()).body).toEqual(expected)
    const cleared = await replace({ quick_sales: [] })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toEqual({ quick_sales: [] })
  })
})

import { beforeEach, describe, expect, test } from 'bun:test'
import { START } from '../helpers/app.ts'
import { doesNotExist, required } from '../helpers/bodies.ts'
import { makeCustomer } from '../helpers/customer-factories.ts'
import { makeEntryPassType } from '../helpers/product-factories.ts'
import { expectEachForbidden, testEachNeedsToken, useSeededApp, useStaff } from '../helpers/seeded.ts'
import type { Customer } from '../../src/db/schema.ts'

/* Gifts: sold on an invoice's GIF line, redeemed once with POST /api/gifts/redeem/. */

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')
const PATH = '/api/gifts/redeem/'

let buyer: Customer
let friend: Customer
let punchCard: Awaited<ReturnType<typeof makeEntryPassType>>
beforeEach(async () => {
  buyer = await makeCustomer(t.db)
  friend = await makeCustomer(t.db, { first_name: 'Alex' })
  punchCard = await makeEntryPassType(t.db)
})

const redeem = (body: unknown, token = staff.members.token) => t.request('POST', PATH, { token, body })

/** Sells a gift of a punch card to the buyer; its code. */
async function sellGift(): Promise<string> {
  const res = await t.request('POST', '/api/invoices/', {
    token: staff.members.token,
    body: {
      customer_id: buyer.id,
      line_items: [{ purchase_type: 'GIF', gift: { entry_pass_id: punchCard.id } }],
      payments: [{ payment_type: 'OFF', amount: '150.00' }],
    },
  })
  expect(res.status).toBe(201)
  expect(res.body.line_items[0]).toMatchObject({
    purchase_type: 'GIF',
    description: '10-Punch Card',
    total: '150.00',
  })
  return res.body.line_items[0].gift_code
}

describe('/api/gifts/redeem/ 401, 403', () => {
  testEachNeedsToken(t, [['POST', PATH]])

  test('redeeming needs can_manage_members', async () => {
    await expectEachForbidden(t, [t.seed.staffToken, staff.allButMembers.token], [['POST', PATH, {}]])
  })
})

describe('POST /api/gifts/redeem/', () => {
  test('a gift sold, then redeemed once: the friend gets the pass; a second redemption is refused', async () => {
    const code = await sellGift()
    expect(code).toMatch(/^[A-HJ-KM-NP-Z2-9]{12}$/)
    // No pass until it is redeemed
    expect(await t.db.selectFrom('customer_entry_passes').select('id').execute()).toEqual([])
    const res = await redeem({ code: code.toLowerCase(), customer_id: friend.id })
    expect(res.status).toBe(200)
    const pass = await t.db.selectFrom('customer_entry_passes').selectAll().executeTakeFirstOrThrow()
    expect(res.body).toEqual({
      code,
      entry_pass_id: punchCard.id,
      voucher_pack_id: null,
      purchaser_id: buyer.id,
      redeemed_by_id: friend.id,
      redeemed_at: START,
      customer_entry_pass_id: pass.id,
      customer_event_voucher_id: null,
      created_at: START,
    })
    expect(pass).toMatchObject({
      owner_id: friend.id,
      purchaser_id: buyer.id,
      acquired_via: 'gift',
      invoice_id: null,
      entries_remaining: 10,
    })
    const again = await redeem({ code, customer_id: buyer.id })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ code: ['This gift has already been redeemed.'] })
    expect(await t.db.selectFrom('customer_entry_passes').select('id').execute()).toHaveLength(1)
  })

  test('an unknown code, an unknown customer, a missing field', async () => {
    expect((await redeem({ code: 'NOTACODE2345', customer_id: 99 })).body).toEqual({
      code: ['No gift has this code.'],
      customer_id: doesNotExist(99),
    })
    expect((await redeem({})).body).toEqual({ code: required, customer_id: required })
  })

  test('a GIF line names exactly one product', async () => {
    const res = await t.request('POST', '/api/invoices/', {
      token: staff.members.token,
      body: { line_items: [{ purchase_type: 'GIF', gift: {} }] },
    })
    expect(res.body).toEqual({
      line_items: [{ gift: ['Give exactly one of entry_pass_id and voucher_pack_id.'] }],
    })
  })
})

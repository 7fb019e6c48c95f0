import { beforeEach, describe, expect, test } from 'bun:test'
import { START } from '../../helpers/app.ts'
import { doesNotExist, required } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeEntryPassType, makeMembershipType } from '../../helpers/product-factories.ts'
import { expectEachForbidden, testEachNeedsToken, useSeededApp, useStaff } from '../../helpers/seeded.ts'
import type { Customer } from '../../../src/db/schema.ts'

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

/** Sells the buyer a gift of a punch card (or of what `gift` names), paid in full; its code. */
async function sellGift(
  gift: Record<string, number> = { entry_pass_id: punchCard.id },
  price = '150.00',
): Promise<string> {
  const res = await t.request('POST', '/api/invoices/', {
    token: staff.members.token,
    body: {
      customer_id: buyer.id,
      line_items: [{ purchase_type: 'GIF', gift }],
      payments: [{ payment_type: 'OFF', amount: price }],
    },
  })
  expect(res.status).toBe(201)
  expect(res.body.line_items[0]).toMatchObject({ purchase_type: 'GIF', total: price })
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
      membership_id: null,
      purchaser_id: buyer.id,
      redeemed_by_id: friend.id,
      redeemed_at: START,
      customer_entry_pass_id: pass.id,
      customer_event_voucher_id: null,
      customer_membership_id: null,
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

  test('a membership gift starts the friend a membership on the day it is redeemed, paid by the gift', async () => {
    const monthly = await makeMembershipType(t.db)
    const code = await sellGift({ membership_id: monthly.id }, '65.00')
    expect(await t.db.selectFrom('customer_memberships').select('id').execute()).toEqual([])
    // 09:00 on Monday 2026-11-23 in Denver
    t.clock.set('2026-11-23T16:00:00.000Z')
    const res = await redeem({ code, customer_id: friend.id })
    expect(res.status).toBe(200)
    const membership = await t.db.selectFrom('customer_memberships').selectAll().executeTakeFirstOrThrow()
    expect(res.body).toEqual({
      code,
      entry_pass_id: null,
      voucher_pack_id: null,
      membership_id: monthly.id,
      purchaser_id: buyer.id,
      redeemed_by_id: friend.id,
      redeemed_at: '2026-11-23T16:00:00.000Z',
      customer_entry_pass_id: null,
      customer_event_voucher_id: null,
      customer_membership_id: membership.id,
      created_at: START,
    })
    // The gift paid the first month: the next bill, at the type's price, is a month after the start.
    expect(membership).toMatchObject({
      membership_type_id: monthly.id,
      owner_id: friend.id,
      status: 'ACT',
      start_date: '2026-11-23',
      end_date: '2026-12-23',
      billing_location_id: t.seed.gym.id,
      billing_amount_cents: 6500,
    })
    const members = await t.db.selectFrom('membership_members').select('customer_id').execute()
    expect(members).toEqual([{ customer_id: friend.id }])
    const history = await t.db
      .selectFrom('membership_status_changes')
      .select(['from_status', 'to_status', 'changed_on', 'changed_by_id'])
      .execute()
    expect(history).toEqual([
      { from_status: null, to_status: 'ACT', changed_on: '2026-11-23', changed_by_id: staff.members.id },
    ])
    // No invoice line holds the membership: nothing was paid for it but the gift.
    const lines = await t.db
      .selectFrom('invoice_line_items')
      .select('id')
      .where('customer_membership_id', '=', membership.id)
      .execute()
    expect(lines).toEqual([])
    expect((await redeem({ code, customer_id: buyer.id })).body).toEqual({
      code: ['This gift has already been redeemed.'],
    })
  })

  test('a GIF line names exactly one active product', async () => {
    const retired = await makeMembershipType(t.db, { status: 'RET' })
    const res = await t.request('POST', '/api/invoices/', {
      token: staff.members.token,
      body: {
        line_items: [
          { purchase_type: 'GIF', gift: {} },
          { purchase_type: 'GIF', gift: { entry_pass_id: punchCard.id, membership_id: retired.id } },
          { purchase_type: 'GIF', gift: { membership_id: retired.id } },
        ],
      },
    })
    const oneProduct = ['Give exactly one of entry_pass_id, voucher_pack_id and membership_id.']
    expect(res.body).toEqual({
      line_items: [
        { gift: oneProduct },
        { gift: oneProduct },
        { gift: ['Only an active product can be sold.'] },
      ],
    })
  })
})

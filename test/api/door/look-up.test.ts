import { describe, expect, test } from 'bun:test'
import type { MembershipStatus } from '../../../src/db/schema.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { lookUpPath, makeDoorCustomer, makeMembershipFor } from '../../helpers/door-factories.ts'
import {
  expectAnswer,
  expectEachNotAllowed,
  testEachNeedsTokenApart,
  useSeededApp,
} from '../../helpers/seeded.ts'

/*
 * GET /api/look-up-member-by-barcode/<barcode>/: identity
 * check at the desk. An active member is one covered by a membership in an active status
 * who is not individually frozen.
 */

const t = useSeededApp()

const lookUp = (barcode: string) => t.request('GET', lookUpPath(barcode), { token: t.seed.staffToken })

const IMAGE = 'https://img.example/lynn.jpg'

/** Lynn (barcode "LYNN1") with a profile image. */
const lynn = () => makeDoorCustomer(t.db, 'LYNN1', { profile_image_url: IMAGE })

const customerBody = (id: number, image: string | null = IMAGE) => ({
  id,
  first_name: 'Lynn',
  last_name: 'Hill',
  birthday: '1961-01-03',
  profile_image_url: image,
  profile_image_small_url: image,
})

const NO_MEMBERSHIP = 'This customer does not have a membership.'
const NOT_ACTIVE = "This customer's membership is not active."

describe('authentication and methods', () => {
  testEachNeedsTokenApart(t, [['GET', lookUpPath('LYNN1')]])

  test('POST, PUT, PATCH and DELETE are 405', async () => {
    const path = lookUpPath('LYNN1')
    await expectEachNotAllowed(t, t.seed.staffToken, [
      ['POST', path, {}],
      ['PUT', path, {}],
      ['PATCH', path, {}],
      ['DELETE', path],
    ])
  })
})

describe('200: an active member', () => {
  for (const status of ['ACT', 'IPP', 'PPR'] as const) {
    test(`a membership in status ${status}`, async () => {
      const customer = await lynn()
      await makeMembershipFor(t.db, customer.id, { membership: { status } })
      expectAnswer({ status }, await lookUp('LYNN1'), 200, { customer: customerBody(customer.id) })
    })
  }

  test('no profile image: both image URLs are null', async () => {
    const customer = await makeDoorCustomer(t.db, 'LYNN1')
    await makeMembershipFor(t.db, customer.id)
    const res = await lookUp('LYNN1')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ customer: customerBody(customer.id, null) })
  })

  test('a member of a group membership someone else owns, one frozen membership beside an active one', async () => {
    const customer = await lynn()
    const owner = await makeCustomer(t.db, { first_name: 'Beth', last_name: 'Rodden' })
    await makeMembershipFor(t.db, customer.id, { membership: { status: 'FRZ' } })
    await makeMembershipFor(t.db, owner.id, {
      membership: { members: [{ customer_id: owner.id }, { customer_id: customer.id }] },
    })
    const res = await lookUp('LYNN1')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ customer: customerBody(customer.id) })
  })

  test('access hours do not matter for an identity check', async () => {
    // Sunday morning in Denver; the membership's hours are Monday's.
    const customer = await lynn()
    await makeMembershipFor(t.db, customer.id, {
      type: { access_hours: JSON.stringify([{ day: 'MON', start: '06:00', end: '10:00' }]) },
    })
    expect((await lookUp('LYNN1')).body).toEqual({ customer: customerBody(customer.id) })
  })
})

describe('404: no customer matching the barcode', () => {
  test('an unknown barcode', async () => {
    await lynn()
    const res = await lookUp('NOBODY')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'No customer matching barcode.' })
  })

  test('a barcode whose percent escapes are not UTF-8 (%ff, a lone %)', async () => {
    await lynn()
    for (const barcode of ['%ff', '%', 'LYNN%E2%80']) {
      expectAnswer({ barcode }, await lookUp(barcode), 404, { error: 'No customer matching barcode.' })
    }
  })

  test('a deactivated customer, even with an active membership', async () => {
    const customer = await makeDoorCustomer(t.db, 'LYNN1', { is_active: 0 })
    await makeMembershipFor(t.db, customer.id)
    const res = await lookUp('LYNN1')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'No customer matching barcode.' })
  })
})

describe('400: the customer, and why they are not an active member', () => {
  test('no membership at all', async () => {
    const customer = await lynn()
    const res = await lookUp('LYNN1')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ customer: customerBody(customer.id), error: NO_MEMBERSHIP })
  })

  const inactive: MembershipStatus[] = ['FRZ', 'FPR', 'PAF', 'FPF', 'CAN', 'END', 'DEN', 'PAY', 'IPC']
  for (const status of inactive) {
    test(`a membership in status ${status} is not active`, async () => {
      const customer = await lynn()
      await makeMembershipFor(t.db, customer.id, { membership: { status } })
      expectAnswer({ status }, await lookUp('LYNN1'), 400, {
        customer: customerBody(customer.id),
        error: NOT_ACTIVE,
      })
    })
  }

  test('an individually frozen member of an active group membership', async () => {
    const customer = await lynn()
    const owner = await makeCustomer(t.db, { first_name: 'Beth', last_name: 'Rodden' })
    await makeMembershipFor(t.db, owner.id, {
      membership: { members: [{ customer_id: owner.id }, { customer_id: customer.id, is_frozen: true }] },
    })
    const res = await lookUp('LYNN1')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ customer: customerBody(customer.id), error: NOT_ACTIVE })
  })
})

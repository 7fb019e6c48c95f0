import { describe, expect, test } from 'bun:test'
import { START } from '../../helpers/app.ts'
import { doesNotExist, forbidden, notFound, required } from '../../helpers/bodies.ts'
import { makeAlert } from '../../helpers/customer-factories.ts'
import {
  barcodePath,
  makeDoorCustomer,
  makeMembershipFor,
  storedCheckIns,
  storedCheckInTotals,
  storedWebhookEvents,
} from '../../helpers/door-factories.ts'
import { makeGym } from '../../helpers/factories.ts'
import { testEachNeedsTokenApart, useSeededApp, useStaff } from '../../helpers/seeded.ts'
import { makeWebhook } from '../../helpers/webhook-factories.ts'

/*
 * Check-ins staff take at the desk: free entry (FRE) and a member's guest (GUE).
 * Both need can_manage_members and answer 201 with the check-in record. The
 * fixed clock reads 2026-11-22T15:04:05.123Z, Sunday 08:04:05 in Denver.
 */

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')

const freeEntryPath = (customerId: number) => `/api/gym-endpoints/free-entry-check-in/${customerId}/`
const guestPath = (customerId: number) => `/api/gym-endpoints/guest-check-in/${customerId}/`

testEachNeedsTokenApart(t, [
  ['POST', freeEntryPath(1)],
  ['POST', guestPath(1)],
])

/** The check-in record the endpoints answer, for a check-in at the seed's gym now. */
function record(
  id: number,
  customer: { id: number; first_name: string; last_name: string; email: string | null; birthday: string },
  fields: Record<string, unknown>,
) {
  return {
    id,
    url: `http://localhost/api/check-ins/${id}/`,
    customer_id: customer.id,
    customer_url: `http://localhost/api/customers/${customer.id}/`,
    customer_first_name: customer.first_name,
    customer_last_name: customer.last_name,
    customer_birthday: customer.birthday,
    customer_email: customer.email,
    check_in_datetime: '2026-11-22T08:04:05',
    check_out_datetime: null,
    visit_duration_minutes: 0,
    entry_method: 'FRE',
    entry_method_description: 'Free entry',
    location_id: t.seed.gym.id,
    location_url: `http://localhost/api/gyms/${t.seed.gym.id}/`,
    location_name: t.seed.gym.name,
    free_entry_reason: '',
    free_entry_granting_user_id: null,
    free_entry_granting_user_first_name: null,
    free_entry_granting_user_last_name: null,
    converted_from_free_entry: false,
    milestone_list: ['1st check-in'],
    check_in_count: 1,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

describe('POST /api/gym-endpoints/free-entry-check-in/<customer_id>/', () => {
  test('a user without can_manage_members gets 403, whatever the body', async () => {
    const customer = await makeDoorCustomer(t.db, 'FREE1')
    for (const body of [{ free_entry_reason: 'Birthday' }, {}]) {
      const res = await t.request('POST', freeEntryPath(customer.id), {
        token: staff.allButMembers.token,
        body,
      })
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: forbidden })
    }
  })

  test('a reason is required and a location must exist; nothing is recorded', async () => {
    const customer = await makeDoorCustomer(t.db, 'FREE2')
    const token = staff.members.token
    const missing = await t.request('POST', freeEntryPath(customer.id), { token, body: {} })
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 400,
      body: { free_entry_reason: required },
    })
    const blank = await t.request('POST', freeEntryPath(customer.id), {
      token,
      body: { free_entry_reason: '  ' },
    })
    expect(blank.body).toEqual({ free_entry_reason: ['This field may not be blank.'] })
    const nowhere = await t.request('POST', freeEntryPath(customer.id), {
      token,
      body: { free_entry_reason: 'Birthday', location_id: 999 },
    })
    expect({ status: nowhere.status, body: nowhere.body }).toEqual({
      status: 400,
      body: { location_id: doesNotExist(999) },
    })
    expect(await storedCheckIns(t.db)).toEqual([])
  })

  test('an unknown or deactivated customer is 404', async () => {
    const inactive = await makeDoorCustomer(t.db, 'FREE3', { is_active: 0 })
    for (const id of [inactive.id, 999]) {
      const res = await t.request('POST', freeEntryPath(id), {
        token: staff.members.token,
        body: { free_entry_reason: 'x' },
      })
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: notFound })
    }
  })

  test('lets in a customer with no entry method and no waiver: FRE with the reason and the granting user', async () => {
    const customer = await makeDoorCustomer(t.db, 'FREE4', { waiver: false })
    await makeWebhook(t.db, { webhook_url: 'http://127.0.0.1:9/hook' })
    const res = await t.request('POST', freeEntryPath(customer.id), {
      token: staff.members.token,
      body: { free_entry_reason: 'Birthday climb' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      record(res.body.id, customer, {
        free_entry_reason: 'Birthday climb',
        free_entry_granting_user_id: staff.members.id,
        free_entry_granting_user_first_name: staff.members.first_name,
        free_entry_granting_user_last_name: staff.members.last_name,
      }),
    )
    expect(await storedCheckInTotals(t.db, customer.id)).toEqual({
      check_in_count: 1,
      first_check_in_timestamp: START,
    })
    expect((await storedWebhookEvents(t.db)).length).toBe(1)
  })
})

describe('POST /api/gym-endpoints/guest-check-in/<guest_customer_id>/', () => {
  /** A host whose membership type grants `passes` guest check-ins a month. */
  async function makeHost(barcode: string, passes: number) {
    const host = await makeDoorCustomer(t.db, barcode, { first_name: 'Alex', last_name: 'Honnold' })
    await makeMembershipFor(t.db, host.id, { type: { name: 'Adult Annual', guest_passes_per_month: passes } })
    return host
  }
  const guestOf = (guestId: number, hostId: number, extra: Record<string, unknown> = {}) =>
    t.request('POST', guestPath(guestId), {
      token: staff.members.token,
      body: { host_customer_id: hostId, ...extra },
    })

  test('a user without can_manage_members gets 403', async () => {
    const res = await t.request('POST', guestPath(1), {
      token: staff.allButMembers.token,
      body: { host_customer_id: 2 },
    })
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: forbidden })
  })

  test('records GUE on the host membership, described as the host’s guest', async () => {
    const host = await makeHost('HOST1', 2)
    const guest = await makeDoorCustomer(t.db, 'GUEST1', {
      first_name: 'Tommy',
      last_name: 'Caldwell',
      email: null,
    })
    const res = await guestOf(guest.id, host.id)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      record(res.body.id, guest, { entry_method: 'GUE', entry_method_description: 'Guest of Alex Honnold' }),
    )
    const [stored] = await storedCheckIns(t.db)
    expect(stored!.host_customer_id).toBe(host.id)
  })

  test('the host needs an active membership with guest passes, and passes left this month', async () => {
    const noPasses = await makeHost('HOST2', 0)
    const guest = await makeDoorCustomer(t.db, 'GUEST2')
    expect((await guestOf(guest.id, noPasses.id)).body).toEqual({
      host_customer_id: ['This customer has no active membership with guest passes.'],
    })

    const host = await makeHost('HOST3', 1)
    expect((await guestOf(guest.id, host.id)).status).toBe(201)
    const other = await makeDoorCustomer(t.db, 'GUEST3')
    const spent = await guestOf(other.id, host.id)
    expect({ status: spent.status, body: spent.body }).toEqual({
      status: 400,
      body: { host_customer_id: ['No guest passes left this month.'] },
    })

    // A new month in Denver gives the passes again.
    t.clock.set('2026-12-01T07:00:00.000Z')
    expect((await guestOf(other.id, host.id)).status).toBe(201)
  })

  test('an unknown host is Invalid pk; an unknown guest is 404', async () => {
    const guest = await makeDoorCustomer(t.db, 'GUEST4')
    expect((await guestOf(guest.id, 999)).body).toEqual({ host_customer_id: doesNotExist(999) })
    const host = await makeHost('HOST4', 1)
    expect((await guestOf(999, host.id)).status).toBe(404)
  })

  test("the guest's blocking alerts and the waiver rule apply, and nothing is recorded", async () => {
    const host = await makeHost('HOST5', 3)
    const noWaiver = await makeDoorCustomer(t.db, 'GUEST5', { waiver: false })
    const blocked = await makeDoorCustomer(t.db, 'GUEST6')
    await makeAlert(t.db, blocked.id, { alert_text: 'Banned until further notice', prevents_check_in: 1 })
    expect((await guestOf(noWaiver.id, host.id)).body).toEqual({
      non_field_errors: ['The following alert is preventing you from checking in: No waiver.'],
    })
    expect((await guestOf(blocked.id, host.id)).body).toEqual({
      non_field_errors: [
        'The following alert is preventing you from checking in: Banned until further notice.',
      ],
    })
    expect(await storedCheckIns(t.db)).toEqual([])
  })

  /** How many of the host's guest passes this month's GUE check-ins have used. */
  const passesUsed = async (hostId: number) =>
    (await storedCheckIns(t.db)).filter((c) => c.entry_method === 'GUE' && c.host_customer_id === hostId)
      .length
  const ownGuest = { host_customer_id: ['A customer cannot be their own guest.'] }
  const alreadyIn = {
    non_field_errors: ['This customer already checked in at this location within the last 5 minutes.'],
  }

  test('a member cannot be their own guest: 400 at host_customer_id, nothing recorded, no pass used', async () => {
    const host = await makeHost('HOST7', 2)
    const res = await guestOf(host.id, host.id)
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: ownGuest })
    expect(await storedCheckIns(t.db)).toEqual([])
    expect(await storedWebhookEvents(t.db)).toEqual([])
    expect(await storedCheckInTotals(t.db, host.id)).toEqual({
      check_in_count: 0,
      first_check_in_timestamp: null,
    })
    // Both passes are still there for real guests.
    for (const barcode of ['GUEST8', 'GUEST9']) {
      const guest = await makeDoorCustomer(t.db, barcode)
      expect((await guestOf(guest.id, host.id)).status).toBe(201)
    }
    expect(await passesUsed(host.id)).toBe(2)
  })

  test('the same guest again within 5 minutes at one gym is 400 and uses no second pass; after them, a new check-in', async () => {
    const host = await makeHost('HOST8', 3)
    const guest = await makeDoorCustomer(t.db, 'GUEST10')
    expect((await guestOf(guest.id, host.id)).status).toBe(201)

    t.clock.set(new Date(Date.parse(START) + 5 * 60_000))
    const again = await guestOf(guest.id, host.id)
    expect({ status: again.status, body: again.body }).toEqual({ status: 400, body: alreadyIn })
    expect(await storedCheckIns(t.db)).toHaveLength(1)
    expect(await storedWebhookEvents(t.db)).toHaveLength(0)
    expect((await storedCheckInTotals(t.db, guest.id)).check_in_count).toBe(1)
    expect(await passesUsed(host.id)).toBe(1)

    t.clock.set(new Date(Date.parse(START) + 5 * 60_000 + 1))
    expect((await guestOf(guest.id, host.id)).status).toBe(201)
    expect(await passesUsed(host.id)).toBe(2)
  })

  test('a guest let in at the door within 5 minutes is already in', async () => {
    const host = await makeHost('HOST9', 1)
    const guest = await makeDoorCustomer(t.db, 'GUEST11')
    await makeMembershipFor(t.db, guest.id)
    const scanned = await t.request('POST', barcodePath('GUEST11'), { token: staff.members.token })
    expect(scanned.status).toBe(200)
    const res = await guestOf(guest.id, host.id)
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: alreadyIn })
    expect(await passesUsed(host.id)).toBe(0)
  })

  test('two guest check-ins of one guest sent at once: one 201, one 400, one pass used', async () => {
    const host = await makeHost('HOST10', 2)
    const guest = await makeDoorCustomer(t.db, 'GUEST12', { first_name: 'Tommy', last_name: 'Caldwell' })
    const answers = await Promise.all([guestOf(guest.id, host.id), guestOf(guest.id, host.id)])
    const rows = await storedCheckIns(t.db)
    expect(rows).toHaveLength(1)
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400])
    expect(answers.find((r) => r.status === 201)!.body).toEqual(
      record(rows[0]!.id, guest, { entry_method: 'GUE', entry_method_description: 'Guest of Alex Honnold' }),
    )
    expect(answers.find((r) => r.status === 400)!.body).toEqual(alreadyIn)
    expect(await passesUsed(host.id)).toBe(1)
    expect(await storedCheckInTotals(t.db, guest.id)).toEqual({
      check_in_count: 1,
      first_check_in_timestamp: START,
    })
  })

  test('a location_id at another gym is used; one naming no gym is refused', async () => {
    const host = await makeHost('HOST6', 2)
    const guest = await makeDoorCustomer(t.db, 'GUEST7')
    const annex = await makeGym(t.db, { name: 'Annex' })
    const res = await guestOf(guest.id, host.id, { location_id: annex.id })
    expect(res.body.location_id).toBe(annex.id)
    expect((await guestOf(guest.id, host.id, { location_id: 999 })).body).toEqual({
      location_id: doesNotExist(999),
    })
  })
})

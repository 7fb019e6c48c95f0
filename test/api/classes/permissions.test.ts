import { describe, expect, test } from 'bun:test'
import { START } from '../../helpers/app.ts'
import { forbidden, onePage } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeEventType } from '../../helpers/factories.ts'
import { makeEvent, makeReservation } from '../../helpers/product-factories.ts'
import { useSeededApp, useStaff } from '../../helpers/seeded.ts'
import {
  classRows,
  entryOut,
  RESERVATIONS,
  reservationOut,
  SOON_END,
  SOON_START,
  WAITLIST,
} from './classes-fixture.ts'

/*
 * Booking, joining, leaving, cancelling and promoting need can_manage_events; any staff user reads
 * reservations, entries and events. Without the flag (the seeded desk user, a members manager)
 * every write is 403 with DRF's body and changes nothing.
 */

const t = useSeededApp()
const staff = useStaff(t, 'members', 'events')

describe('staff without can_manage_events', () => {
  test('read reservations, the waitlist and events, but cannot book, join, cancel or promote', async () => {
    const yoga = await makeEventType(t.db, { name: 'Yoga' })
    // Inside the cutoff with a spot free and someone waiting: promote/ would succeed.
    const soon = await makeEvent(t.db, {
      event_type_id: yoga.id,
      gym_id: t.seed.gym.id,
      name: 'Yoga Soon',
      start_at: SOON_START,
      end_at: SOON_END,
      capacity: 2,
    })
    const holder = await makeCustomer(t.db, { first_name: 'Lynn', last_name: 'Hill' })
    const waiting = await makeCustomer(t.db, { first_name: 'Ashima', last_name: 'Shiraishi' })
    const other = await makeCustomer(t.db, { first_name: 'Brooke', last_name: 'Raboutou' })
    const held = await makeReservation(t.db, { event_id: soon.id, customer_id: holder.id })
    const entry = await t.db
      .insertInto('waitlist_entries')
      .values({
        event_id: soon.id,
        customer_id: waiting.id,
        status: 'WAI',
        created_at: START,
        updated_at: START,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const before = await classRows(t)
    for (const token of [t.seed.staffToken, staff.members.token]) {
      for (const [path, body] of [
        [RESERVATIONS, { event_id: soon.id, customer_id: other.id }],
        [`${RESERVATIONS}${held.id}/cancel/`, {}],
        [WAITLIST, { event_id: soon.id, customer_id: other.id }],
        [`${WAITLIST}${entry.id}/cancel/`, {}],
        [`${WAITLIST}${entry.id}/promote/`, {}],
      ] as const) {
        const res = await t.request('POST', path, { token, body })
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 403, body: forbidden })
      }
      const reservations = await t.request('GET', `${RESERVATIONS}?event_id=${soon.id}`, { token })
      expect(reservations.body).toEqual(onePage([reservationOut(held.id, soon, holder)]))
      const entries = await t.request('GET', `${WAITLIST}?event_id=${soon.id}`, { token })
      expect(entries.body).toEqual(onePage([entryOut(entry.id, soon, waiting)]))
      const event = await t.request('GET', `/api/events/${soon.id}/`, { token })
      expect(event.body).toMatchObject({ num_reservations: 1, num_waitlisted: 1, spots_left: 1 })
    }
    expect(await classRows(t)).toEqual(before)
    // With can_manage_events the same promote/ goes through.
    const promoted = await t.request('POST', `${WAITLIST}${entry.id}/promote/`, { token: staff.events.token })
    expect(promoted.body).toMatchObject({ id: entry.id, status: 'PRO' })
  })
})

/**
 * Bookings made all at once, against the built executable over real HTTP (classes.md: "Capacity
 * holds under concurrency"): forty customers booking the same few spots at the same moment get
 * exactly as many reservations as there are spots, whichever capacity limits them (the event's own,
 * or its type's facility capacity across overlapping events), and every other answer is the plain
 * refusal, with nothing written for it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DateTime } from 'luxon'
import { getToken, removeTempDirs, request, startServer, stopAll, type Server } from './helpers.ts'

const ADMIN_EMAIL = 'classes@crag.example'
const ADMIN_PASSWORD = 'ten-spots-ten-climbers'
const CUSTOMERS = 40
const FULL = { non_field_errors: ['The event is full.'] }

let server: Server
let token: string
let gymId: number
const customerIds: number[] = []

beforeAll(async () => {
  server = await startServer({
    env: { BELAY_ADMIN_EMAIL: ADMIN_EMAIL, BELAY_ADMIN_PASSWORD: ADMIN_PASSWORD },
  })
  token = await getToken(server.base, ADMIN_EMAIL, ADMIN_PASSWORD)
  gymId = (await request(server.base, 'GET', '/api/gyms/', { token })).body.results[0].id
  for (let i = 1; i <= CUSTOMERS; i++) {
    customerIds.push(
      await create('/api/customers/', {
        first_name: 'Climber',
        last_name: `No ${i}`,
        birthday: '1990-05-01',
      }),
    )
  }
})

afterAll(async () => {
  await stopAll()
  removeTempDirs()
})

/** POST with the admin's token, answered 201 (else the test fails with the answer), the body's id. */
async function create(path: string, json: unknown): Promise<number> {
  const res = await request(server.base, 'POST', path, { token, json })
  expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 201, body: res.body })
  return res.body.id
}

/** Tomorrow at this UTC wall-clock time ("18:30"), as an instant. */
const tomorrowAt = (time: string) => {
  const [hour, minute] = time.split(':').map(Number)
  return DateTime.utc().plus({ days: 1 }).set({ hour, minute, second: 0, millisecond: 0 }).toISO()!
}

const newEventType = (name: string, capacity: number | null) =>
  create('/api/event-types/', { name, gym_id: gymId, status: 'ACT', capacity })

const newEvent = (eventTypeId: number, from: string, to: string, capacity: number | null) =>
  create('/api/events/', {
    event_type_id: eventTypeId,
    start_at: tomorrowAt(from),
    end_at: tomorrowAt(to),
    capacity,
  })

const book = (eventId: number, customerId: number) =>
  request(server.base, 'POST', '/api/reservations/', {
    token,
    json: { event_id: eventId, customer_id: customerId },
  })

const readEvent = async (id: number) =>
  (await request(server.base, 'GET', `/api/events/${id}/`, { token })).body

/** The reservations of an event as the API lists them. */
const reservationsOf = async (eventId: number) =>
  (await request(server.base, 'GET', `/api/reservations/?event_id=${eventId}&page_size=100`, { token })).body

describe('POST /api/reservations/ forty at once over HTTP', () => {
  test("an event's own capacity of 10: ten booked, thirty refused as full", async () => {
    const typeId = await newEventType('Lead climbing course', null)
    const eventId = await newEvent(typeId, '18:00', '19:30', 10)

    const answers = await Promise.all(customerIds.map((customerId) => book(eventId, customerId)))

    const booked = answers.filter((res) => res.status === 201)
    const refused = answers.filter((res) => res.status !== 201)
    expect(booked).toHaveLength(10)
    expect(refused.map((res) => ({ status: res.status, body: res.body }))).toEqual(
      Array(30).fill({ status: 400, body: FULL }),
    )
    expect(await readEvent(eventId)).toMatchObject({ capacity: 10, num_reservations: 10, spots_left: 0 })
    const listed = await reservationsOf(eventId)
    expect(listed.count).toBe(10)
    const ascending = (ids: number[]) => ids.sort((a, b) => a - b)
    expect(ascending(listed.results.map((r: { id: number }) => r.id))).toEqual(
      ascending(booked.map((res) => res.body.id)),
    )
    expect(new Set(listed.results.map((r: { customer_id: number }) => r.customer_id)).size).toBe(10)
  })

  test("a type's facility capacity of 12 across three overlapping events: twelve booked in all", async () => {
    const typeId = await newEventType('Youth team practice', 12)
    // 18:00-19:30, 18:30-20:00, 19:00-20:30: all three run from 19:00 to 19:30.
    const eventIds = [
      await newEvent(typeId, '18:00', '19:30', null),
      await newEvent(typeId, '18:30', '20:00', null),
      await newEvent(typeId, '19:00', '20:30', null),
    ]

    const answers = await Promise.all(
      customerIds.map((customerId, i) => book(eventIds[i % eventIds.length]!, customerId)),
    )

    const booked = answers.filter((res) => res.status === 201)
    const refused = answers.filter((res) => res.status !== 201)
    expect(booked).toHaveLength(12)
    expect(refused.map((res) => ({ status: res.status, body: res.body }))).toEqual(
      Array(28).fill({ status: 400, body: FULL }),
    )
    const listed = await Promise.all(eventIds.map(reservationsOf))
    expect(listed.reduce((sum, page) => sum + page.count, 0)).toBe(12)
    const events = await Promise.all(eventIds.map(readEvent))
    expect(events.reduce((sum, e) => sum + e.num_reservations, 0)).toBe(12)
    for (const event of events) expect(event).toMatchObject({ capacity: null, spots_left: 0 })
  })
})

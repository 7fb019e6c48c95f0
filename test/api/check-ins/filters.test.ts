import { describe, expect, test } from 'bun:test'
import { ORIGIN } from '../../helpers/app.ts'
import { emptyPage, onePage } from '../../helpers/bodies.ts'
import { bethFields, LIST, ofCustomer, one, useCheckInHistory } from '../../helpers/check-in-history.ts'
import { makeGym } from '../../helpers/factories.ts'

/*
 * The check-in lists: newest first, has_checked_out's own order, and every filter, with the day
 * filters judged in the organization's zone (America/Denver in the seed) across midnight and DST.
 */

const h = useCheckInHistory()
const { t, staff, checkIn, record, ids } = h

describe('check-ins: the list', () => {
  test('no check-ins: an empty page', async () => {
    expect((await t.request('GET', LIST, { token: staff.members.token })).body).toEqual(emptyPage)
  })

  test('newest check-in first, then the higher id; whole records in the envelope', async () => {
    const early = await checkIn({ at: '2026-11-22T14:00:00.000Z' })
    const same1 = await checkIn({ customer_id: h.beth })
    const same2 = await checkIn()
    const earliest = await checkIn({ customer_id: h.beth, at: '2026-11-20T14:00:00.000Z' })
    const res = await t.request('GET', LIST, { token: staff.members.token })
    expect(res.body).toEqual(
      onePage([
        record(same2.id),
        record(same1.id, { customer_id: h.beth, ...bethFields }),
        record(early.id, {
          check_in_datetime: '2026-11-22T07:00:00',
          visit_duration_minutes: 64,
          created_at: '2026-11-22T14:00:00.000Z',
          updated_at: '2026-11-22T14:00:00.000Z',
        }),
        record(earliest.id, {
          customer_id: h.beth,
          ...bethFields,
          check_in_datetime: '2026-11-20T07:00:00',
          visit_duration_minutes: 2 * 24 * 60 + 64,
          created_at: '2026-11-20T14:00:00.000Z',
          updated_at: '2026-11-20T14:00:00.000Z',
        }),
      ]),
    )
  })

  test('pages keep the filters in next and previous', async () => {
    const made = []
    for (let i = 0; i < 3; i++) made.push(await checkIn({ at: `2026-11-22T1${i}:00:00.000Z` }))
    await checkIn({ customer_id: h.beth })
    const res = await t.request('GET', `${LIST}?customer_id=${h.lynn}&page_size=2`, {
      token: staff.members.token,
    })
    expect(res.body.count).toBe(3)
    expect(res.body.next).toBe(`${ORIGIN}/api/check-ins/?customer_id=${h.lynn}&page_size=2&page=2`)
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual([made[2]!.id, made[1]!.id])
    expect(await ids(`customer_id=${h.lynn}&page_size=2&page=2`)).toEqual([made[0]!.id])
  })

  describe('day filters, whole days in the organization zone (America/Denver)', () => {
    test('23:30 on the 21st in Denver is the 21st, although it is the 22nd in UTC', async () => {
      const lateOn21 = await checkIn({ at: '2026-11-22T06:30:00.000Z' }) // 23:30 MST on the 21st
      const firstOn22 = await checkIn({ at: '2026-11-22T07:00:00.000Z' }) // 00:00 on the 22nd
      const lastOn21 = await checkIn({ at: '2026-11-22T06:59:59.999Z' })
      const firstOn21 = await checkIn({ at: '2026-11-21T07:00:00.000Z' })
      const lastOn20 = await checkIn({ at: '2026-11-21T06:59:59.999Z' })
      expect(await ids('check_in_date_min=2026-11-21&check_in_date_max=2026-11-21')).toEqual([
        lastOn21.id,
        lateOn21.id,
        firstOn21.id,
      ])
      expect(await ids('check_in_date_min=2026-11-22')).toEqual([firstOn22.id])
      expect(await ids('check_in_date_max=2026-11-20')).toEqual([lastOn20.id])
      expect(await ids('check_in_date_max=2026-11-21')).toEqual([
        lastOn21.id,
        lateOn21.id,
        firstOn21.id,
        lastOn20.id,
      ])
      expect(await ids('check_in_date_min=2026-11-22&check_in_date_max=2026-11-21')).toEqual([])
    })

    test('the day clocks fall back has 25 hours, all of them on that day', async () => {
      // 2026-11-01 in Denver runs from 06:00Z (MDT) to 07:00Z on the 2nd (MST).
      const before = await checkIn({ at: '2026-11-01T05:59:59.999Z' })
      const first = await checkIn({ at: '2026-11-01T06:00:00.000Z' })
      const inTheRepeatedHour = await checkIn({ at: '2026-11-01T08:30:00.000Z' })
      const inThe25thHour = await checkIn({ at: '2026-11-02T06:30:00.000Z' })
      const next = await checkIn({ at: '2026-11-02T07:00:00.000Z' })
      expect(await ids('check_in_date_min=2026-11-01&check_in_date_max=2026-11-01')).toEqual([
        inThe25thHour.id,
        inTheRepeatedHour.id,
        first.id,
      ])
      expect(await ids('check_in_date_max=2026-10-31')).toEqual([before.id])
      expect(await ids('check_in_date_min=2026-11-02&check_in_date_max=2026-11-02')).toEqual([next.id])
    })

    test('the day clocks spring forward has 23 hours', async () => {
      // 2026-03-08 in Denver runs from 07:00Z (MST) to 06:00Z on the 9th (MDT).
      await checkIn({ at: '2026-03-08T06:59:59.999Z' })
      const first = await checkIn({ at: '2026-03-08T07:00:00.000Z' })
      const last = await checkIn({ at: '2026-03-09T05:59:59.999Z' })
      await checkIn({ at: '2026-03-09T06:00:00.000Z' })
      expect(await ids('check_in_date_min=2026-03-08&check_in_date_max=2026-03-08')).toEqual([
        last.id,
        first.id,
      ])
    })

    test("a gym in another zone is filtered by the organization's days, shown in its own time", async () => {
      const boston = await makeGym(t.db, { name: 'Boston Bouldering', time_zone: 'America/New_York' })
      // 01:00 on the 22nd in Boston, 23:00 on the 21st in Denver.
      const a = await checkIn({ gym_id: boston.id, at: '2026-11-22T06:00:00.000Z' })
      expect(await ids('check_in_date_min=2026-11-21&check_in_date_max=2026-11-21')).toEqual([a.id])
      expect(await ids('check_in_date_min=2026-11-22')).toEqual([])
      const res = await t.request('GET', `${LIST}?check_in_date_max=2026-11-21`, {
        token: staff.members.token,
      })
      expect(res.body.results[0].check_in_datetime).toBe('2026-11-22T01:00:00')
    })
  })

  describe('this_calendar_day', () => {
    test("true: since the start of today in the organization's zone; false: no limit", async () => {
      // START is 08:04:05 on the 22nd in Denver; the day began at 07:00Z.
      const yesterday = await checkIn({ at: '2026-11-22T06:59:59.999Z' })
      const midnight = await checkIn({ at: '2026-11-22T07:00:00.000Z' })
      const now = await checkIn()
      expect(await ids('this_calendar_day=true')).toEqual([now.id, midnight.id])
      expect(await ids('this_calendar_day=TRUE')).toEqual([now.id, midnight.id])
      expect(await ids('this_calendar_day=false')).toEqual([now.id, midnight.id, yesterday.id])
    })

    test('moves with the clock: after local midnight, yesterday is gone', async () => {
      await checkIn()
      t.clock.set('2026-11-23T07:00:00.000Z') // 00:00 on the 23rd in Denver
      const today = await checkIn({ at: '2026-11-23T07:00:00.000Z' })
      expect(await ids('this_calendar_day=true')).toEqual([today.id])
    })

    test("judged in the organization's zone, not UTC's: at 23:30 in Denver it is still the 21st", async () => {
      t.clock.set('2026-11-22T06:30:00.000Z')
      const earlyOn21 = await checkIn({ at: '2026-11-21T08:00:00.000Z' }) // 01:00 on the 21st
      await checkIn({ at: '2026-11-21T06:59:00.000Z' }) // the 20th
      expect(await ids('this_calendar_day=true')).toEqual([earlyOn21.id])
    })

    test('with check_in_date_min, the later start wins; with check_in_date_max, both apply', async () => {
      const on21 = await checkIn({ at: '2026-11-21T18:00:00.000Z' })
      const now = await checkIn()
      expect(await ids('this_calendar_day=true&check_in_date_min=2026-11-01')).toEqual([now.id])
      expect(await ids('this_calendar_day=true&check_in_date_max=2026-11-21')).toEqual([])
      expect(await ids('this_calendar_day=false&check_in_date_max=2026-11-21')).toEqual([on21.id])
    })
  })

  describe('has_checked_out', () => {
    test('true: only checked-out visits, the latest check-out first; false: those still in', async () => {
      const longVisit = await checkIn({
        at: '2026-11-22T08:00:00.000Z',
        check_out_at: '2026-11-22T14:00:00.000Z',
      })
      const shortVisit = await checkIn({
        at: '2026-11-22T10:00:00.000Z',
        check_out_at: '2026-11-22T11:00:00.000Z',
      })
      const sameOut = await checkIn({
        at: '2026-11-22T09:00:00.000Z',
        check_out_at: '2026-11-22T14:00:00.000Z',
      })
      const stillIn = await checkIn({ at: '2026-11-22T12:00:00.000Z' })
      expect(await ids()).toEqual([stillIn.id, shortVisit.id, sameOut.id, longVisit.id])
      expect(await ids('has_checked_out=true')).toEqual([sameOut.id, longVisit.id, shortVisit.id])
      expect(await ids('has_checked_out=false')).toEqual([stillIn.id])
      const res = await t.request('GET', `${LIST}?has_checked_out=true&customer_id=${h.lynn}`, {
        token: staff.members.token,
      })
      expect(res.body.count).toBe(3)
      expect(res.body.results[2]).toEqual(
        record(shortVisit.id, {
          check_in_datetime: '2026-11-22T03:00:00',
          check_out_datetime: '2026-11-22T04:00:00',
          visit_duration_minutes: 60,
          created_at: '2026-11-22T10:00:00.000Z',
          updated_at: '2026-11-22T10:00:00.000Z',
        }),
      )
    })
  })

  describe('customer_id, location_id, entry_method', () => {
    test('each narrows the list, and they combine', async () => {
      const north = await makeGym(t.db, { name: 'Boulder Barn North' })
      const a = await checkIn({ at: '2026-11-22T10:00:00.000Z' })
      const b = await checkIn({ customer_id: h.beth, entry_method: 'ENT', at: '2026-11-22T11:00:00.000Z' })
      const c = await checkIn({ gym_id: north.id, entry_method: 'FRE', at: '2026-11-22T12:00:00.000Z' })
      const d = await checkIn({ customer_id: h.beth, gym_id: north.id, at: '2026-11-22T13:00:00.000Z' })
      expect(await ids(`customer_id=${h.lynn}`)).toEqual([c.id, a.id])
      expect(await ids(`customer_id=${h.beth}`)).toEqual([d.id, b.id])
      expect(await ids(`customer_id=${h.beth + 100}`)).toEqual([])
      expect(await ids(`location_id=${north.id}`)).toEqual([d.id, c.id])
      expect(await ids(`location_id=${t.seed.gym.id}`)).toEqual([b.id, a.id])
      expect(await ids('entry_method=MEM')).toEqual([d.id, a.id])
      expect(await ids('entry_method=ENT')).toEqual([b.id])
      expect(await ids('entry_method=FRE')).toEqual([c.id])
      expect(await ids('entry_method=GUE')).toEqual([])
      expect(await ids(`customer_id=${h.beth}&location_id=${north.id}`)).toEqual([d.id])
      expect(await ids(`customer_id=${h.lynn}&entry_method=MEM`)).toEqual([a.id])
      expect(await ids(`location_id=${north.id}&entry_method=MEM&check_in_date_min=2026-11-22`)).toEqual([
        d.id,
      ])
    })
  })
})

describe("a customer's check-ins: /api/customers/<id>/check-ins/", () => {
  test("only that customer's, newest first, as the same records", async () => {
    const a = await checkIn({ at: '2026-11-22T14:00:00.000Z' })
    await checkIn({ customer_id: h.beth })
    const b = await checkIn()
    const res = await t.request('GET', ofCustomer(h.lynn), { token: staff.members.token })
    expect(res.body).toEqual(
      onePage([
        record(b.id),
        record(a.id, {
          check_in_datetime: '2026-11-22T07:00:00',
          visit_duration_minutes: 64,
          created_at: '2026-11-22T14:00:00.000Z',
          updated_at: '2026-11-22T14:00:00.000Z',
        }),
      ]),
    )
    const detail = await t.request('GET', `${ofCustomer(h.lynn)}${a.id}/`, { token: t.seed.adminToken })
    expect(detail.body).toEqual((await t.request('GET', one(a.id), { token: t.seed.adminToken })).body)
  })

  test('a customer without check-ins: an empty page', async () => {
    await checkIn()
    expect((await t.request('GET', ofCustomer(h.beth), { token: staff.members.token })).body).toEqual(
      emptyPage,
    )
  })

  test('takes the filters; a customer_id parameter does not widen it', async () => {
    const mem = await checkIn({ at: '2026-11-22T14:00:00.000Z', check_out_at: '2026-11-22T15:00:00.000Z' })
    const ent = await checkIn({ entry_method: 'ENT', at: '2026-11-21T14:00:00.000Z' })
    await checkIn({ customer_id: h.beth })
    expect(await ids('entry_method=ENT', ofCustomer(h.lynn))).toEqual([ent.id])
    expect(await ids('has_checked_out=true', ofCustomer(h.lynn))).toEqual([mem.id])
    expect(await ids('check_in_date_max=2026-11-21', ofCustomer(h.lynn))).toEqual([ent.id])
    expect(await ids('this_calendar_day=true', ofCustomer(h.lynn))).toEqual([mem.id])
    expect(await ids(`customer_id=${h.beth}`, ofCustomer(h.lynn))).toEqual([mem.id, ent.id])
  })
})

import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER } from '../../helpers/app.ts'
import { forbidden, invalidDate } from '../../helpers/bodies.ts'
import { useSeededApp } from '../../helpers/seeded.ts'
import { makeClimb } from '../../helpers/walls-factories.ts'
import { climbBody, climbPath, daysAgo, TODAY, useWall } from './wall.ts'

/**
 * POST /api/gyms/<id>/climbs/<climb_id>/strip/: a climb comes down on a local day, today unless
 * told; refused before it was set, after today, or once stripped. Two strips at once: one wins.
 */

const t = useSeededApp()
const wall = useWall(t)

const stripPath = (id: number) => `${climbPath(wall.gym.id, id)}strip/`
const strip = (id: number, body: unknown = {}, token = wall.ana.token) =>
  t.request('POST', stripPath(id), { token, body })
const storedClimb = (id: number) =>
  t.db.selectFrom('climbs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

const alreadyStripped = { non_field_errors: ['This climb has already been stripped.'] }
const beforeSet = (date: string) => ({ date: [`A climb cannot be stripped before it was set (${date}).`] })
const inTheFuture = (today: string) => ({ date: [`Enter a date no later than today (${today}).`] })

/** A V4 in The Cave set ten days ago by Ana. */
const makeUp = () =>
  makeClimb(t.db, { section: wall.cave, grade: wall.v4, setterIds: [wall.ana.id] }, { set_date: daysAgo(10) })
const upBody = (id: number, fields: Record<string, unknown> = {}) =>
  climbBody(wall, id, {
    setter_ids: [wall.ana.id],
    setter_names: ['Ana Lopez'],
    set_date: daysAgo(10),
    days_up: 10,
    ...fields,
  })

describe('strip', () => {
  test("without a date: today in the gym's zone; answers the climb, down", async () => {
    const climb = await makeUp()
    t.clock.advance(60_000)
    const res = await strip(climb.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      upBody(climb.id, { stripped_date: TODAY, is_up: false, updated_at: ONE_MINUTE_LATER }),
    )
  })

  test('with no body at all, the same', async () => {
    const climb = await makeUp()
    const res = await t.request('POST', stripPath(climb.id), { token: wall.ana.token })
    expect(res.status).toBe(200)
    expect(res.body.stripped_date).toBe(TODAY)
  })

  test("today is the gym's local day: 03:00 UTC on the 23rd strips on the 22nd", async () => {
    const climb = await makeUp()
    t.clock.set('2026-11-23T03:00:00.000Z')
    expect((await strip(climb.id)).body).toMatchObject({ stripped_date: '2026-11-22', days_up: 10 })
  })

  test('on a past date: days_up counts to it, and stays as the days pass', async () => {
    const climb = await makeUp()
    const res = await strip(climb.id, { date: daysAgo(4) })
    expect(res.body).toEqual(
      upBody(climb.id, {
        stripped_date: daysAgo(4),
        is_up: false,
        days_up: 6,
        updated_at: res.body.updated_at,
      }),
    )
    t.clock.advance(30 * 86_400_000)
    const later = await t.request('GET', climbPath(wall.gym.id, climb.id), { token: t.seed.staffToken })
    expect(later.body.days_up).toBe(6)
  })

  test('on the day it was set: 0 days up', async () => {
    const climb = await makeUp()
    expect((await strip(climb.id, { date: daysAgo(10) })).body).toMatchObject({ days_up: 0, is_up: false })
  })

  test('refusals change nothing', async () => {
    const climb = await makeUp()
    const before = await storedClimb(climb.id)
    const cases: Array<[unknown, unknown]> = [
      [{ date: daysAgo(11) }, beforeSet(daysAgo(10))],
      [{ date: '2026-11-23' }, inTheFuture(TODAY)],
      [{ date: 'yesterday' }, { date: invalidDate }],
      [{ date: '2026-02-29' }, { date: invalidDate }],
      [{ date: null }, { date: ['This field may not be null.'] }],
    ]
    for (const [body, errors] of cases) {
      const res = await strip(climb.id, body)
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors })
    }
    expect(await storedClimb(climb.id)).toEqual(before)
  })

  test('a stripped climb is refused, whatever the date', async () => {
    const climb = await makeClimb(
      t.db,
      { section: wall.cave, grade: wall.v4 },
      { set_date: daysAgo(10), stripped_date: daysAgo(3) },
    )
    const before = await storedClimb(climb.id)
    for (const body of [{}, { date: daysAgo(1) }]) {
      const res = await strip(climb.id, body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(alreadyStripped)
    }
    expect(await storedClimb(climb.id)).toEqual(before)
  })

  test('without can_manage_climbs it is 403 and the climb stays up; an admin may', async () => {
    const climb = await makeUp()
    const res = await strip(climb.id, {}, t.seed.staffToken)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbidden)
    expect((await storedClimb(climb.id)).stripped_date).toBeNull()
    expect((await strip(climb.id, {}, t.seed.adminToken)).status).toBe(200)
  })

  test('two strips of one climb at once: one 200, one 400, stripped once', async () => {
    const climb = await makeUp()
    const answers = await Promise.all([
      strip(climb.id, { date: daysAgo(2) }),
      strip(climb.id, { date: daysAgo(1) }),
    ])
    const won = answers.find((res) => res.status === 200)
    const lost = answers.find((res) => res.status === 400)
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400])
    expect(lost!.body).toEqual(alreadyStripped)
    expect((await storedClimb(climb.id)).stripped_date).toBe(won!.body.stripped_date)
  })
})

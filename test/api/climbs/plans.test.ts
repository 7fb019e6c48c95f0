import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { listClimbs, listClimbsDue, type ClimbFilters } from '../../../src/api/climbs/queries.ts'
import { wallStats } from '../../../src/core/walls/stats.ts'
import type { Connection, Db } from '../../../src/db/connection.ts'
import { START } from '../../helpers/app.ts'
import { makeGym, makeOrganization, makeUser } from '../../helpers/factories.ts'
import { openQueryPlans, type QueryPlans } from '../../helpers/query-plans.ts'
import { makeClimb, makeGrade, makeSection } from '../../helpers/walls-factories.ts'

/*
 * A gym keeps every climb it ever set, so the list and the stats must not read a statement per climb,
 * grade, section or setter, and a page must come in the list's order straight from its index. The
 * plans are SQLite's without statistics: the appliance never runs ANALYZE.
 */

let connection: Connection
let db: Db
let plansOf: QueryPlans['plansOf']
let gymId: number
let setterId: number
const now = new Date(START)

beforeAll(async () => {
  ;({ connection, db, plansOf } = await openQueryPlans())
  await makeOrganization(connection.db)
  const gym = await makeGym(connection.db)
  gymId = gym.id
  const setter = await makeUser(connection.db, {})
  setterId = setter.id
  const grade = await makeGrade(connection.db, gym.id)
  const section = await makeSection(connection.db, gym.id)
  for (let i = 0; i < 30; i++)
    await makeClimb(
      connection.db,
      { section, grade, setterIds: [setter.id] },
      { planned_strip_date: '2026-11-22' },
    )
})
afterAll(() => connection.close())

describe('climbs list and stats plans', () => {
  const cases: Array<[string, () => ClimbFilters]> = [
    ['no filter', () => ({})],
    ['up boulders of one setter', () => ({ is_up: true, discipline: 'BOU', setter_id: setterId })],
  ]
  for (const [name, filters] of cases) {
    test(`${name}: a count, then a page in index order and its setters in one statement`, async () => {
      const plans = await plansOf(async () => {
        const climbs = listClimbs(db, gymId, filters(), now)
        await climbs.count()
        expect((await climbs.rows(10, 10)).length).toBe(10)
      })
      expect(plans).toHaveLength(3)
      const [count, page, setters] = plans
      // Climbs up are counted from the index of what is up; every climb, from the list's index.
      expect(count).toMatch(/SEARCH climbs USING (COVERING )?INDEX climbs_(gym_set|up) \(gym_id=\?\)/)
      expect(page).toMatch(/SEARCH climbs USING INDEX climbs_gym_set \(gym_id=\?\)/)
      expect(page).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
      expect(setters).toMatch(
        /SEARCH climb_setters USING INDEX sqlite_autoindex_climb_setters_1 \(climb_id=\?\)/,
      )
    })
  }

  test('the stats: five statements and the due climbs in two, however many climbs', async () => {
    const plans = await plansOf(async () => {
      await wallStats(db, gymId, 'BOU', '2026-11-22')
      expect(await listClimbsDue(db, gymId, 'BOU', '2026-11-22', now)).toHaveLength(30)
    })
    expect(plans).toHaveLength(7)
    expect(plans[0]).toMatch(/SEARCH climbs USING INDEX climbs_up \(gym_id=\?\)/)
    expect(plans[1]).toMatch(/SEARCH c USING INDEX climbs_grade \(grade_id=\? AND stripped_date=\?\)/)
    expect(plans[2]).toMatch(/SEARCH c USING INDEX climbs_section_up \(section_id=\? AND stripped_date=\?\)/)
    // The setters' counts read the last year's climbs only; who ever set, a staff user at a time.
    expect(plans[3]).toMatch(/SEARCH c USING INDEX climbs_gym_set \(gym_id=\? AND set_date>\?\)/)
    expect(plans[4]).toMatch(/SEARCH cs USING COVERING INDEX climb_setters_user \(staff_user_id=\?\)/)
    expect(plans[5]).toMatch(/SEARCH climbs USING INDEX climbs_up \(gym_id=\? AND planned_strip_date<\?\)/)
  })
})

import { describe, expect, test } from 'bun:test'
import { notFound } from '../../helpers/bodies.ts'
import { makeUser } from '../../helpers/factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'
import { makeClimb } from '../../helpers/walls-factories.ts'
import { climbsPath, makeSetter, useWall } from './wall.ts'

/*
 * GET /api/gyms/<id>/climbs/setters/: whom a setter who is not an admin can name on a climb, since
 * only admins may list the staff.
 */

const t = useSeededApp()
const wall = useWall(t)
const settersPath = (gymId = wall.gym.id) => `${climbsPath(gymId)}setters/`

describe('setters/', () => {
  test('the active setters and admins, and whoever set a climb here, by name; no one else', async () => {
    const guest = await makeUser(t.db, { first_name: 'cleo', last_name: 'Park' })
    await makeClimb(t.db, { section: wall.cave, grade: wall.v4, setterIds: [guest.id] })
    await makeSetter(t, { first_name: 'Gone', last_name: 'Away', is_active: 0 })
    // set only at the other gym: not offered here
    const elsewhere = await makeUser(t.db, { first_name: 'Eli', last_name: 'Stone' })
    await makeClimb(t.db, { section: wall.otherSection, grade: wall.otherGrade, setterIds: [elsewhere.id] })

    const res = await t.request('GET', settersPath(), { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      { setter_id: t.seed.admin.id, name: 'admin@gym.example' },
      { setter_id: wall.ana.id, name: 'Ana Lopez' },
      { setter_id: wall.ben.id, name: 'Ben Ng' },
      { setter_id: guest.id, name: 'cleo Park' },
    ])
  })

  test('an unknown gym is 404, and it offers GET only', async () => {
    const missing = await t.request('GET', settersPath(wall.gym.id + 999), { token: t.seed.staffToken })
    expect([missing.status, missing.body]).toEqual([404, notFound])
    const post = await t.request('POST', settersPath(), { token: t.seed.adminToken, body: {} })
    expect(post.status).toBe(405)
  })
})

import { beforeEach, describe, expect, test } from 'bun:test'
import { emptyPage, forbidden, invalidPage } from '../../helpers/bodies.ts'
import { FakeSite } from '../../helpers/fake-site.ts'
import { expectUnauthenticated, useSeededApp, useStaff } from '../../helpers/seeded.ts'

/** /api/sites/ (admins) and /api/sites/link/ (any staff): the box as a site of a hub. */

const site = new FakeSite()
beforeEach(() => site.reset())

/** This box's row with the fake's defaults: north, applied 40 of 42, nothing unsent. */
const north = {
  name: 'north',
  number: 1,
  this_box: true,
  last_seen: '2026-11-22T15:04:01.000Z',
  applied_stream_sequence: 40,
  unapplied_changes: 2,
  unsent_changes: 0,
  oldest_unsent_age_seconds: null,
  applying_stopped: null,
  hub_reachable: true,
  hub_unreachable_since: null,
}

const other = {
  this_box: false,
  oldest_unsent_age_seconds: null,
  applying_stopped: null,
  hub_reachable: null,
  hub_unreachable_since: null,
}

/** The hub knows three sites besides this one, listed out of order; one has never beaten. */
function threeMoreSites() {
  site.sites!.push(
    {
      site: 'west',
      number: 4,
      lastSeen: new Date('2026-11-22T15:03:59.000Z'),
      appliedStreamSequence: 42,
      unsentChanges: 0,
      applyingStopped: 'a change from site south needs schema level 31; this box is at 30: upgrade it',
    },
    {
      site: 'south',
      number: 2,
      lastSeen: new Date('2026-11-22T14:58:00.000Z'),
      appliedStreamSequence: 30,
      unsentChanges: 5,
      applyingStopped: null,
    },
    { site: 'east', number: 3, lastSeen: null },
  )
}

const south = {
  ...other,
  name: 'south',
  number: 2,
  last_seen: '2026-11-22T14:58:00.000Z',
  applied_stream_sequence: 30,
  unapplied_changes: 12,
  unsent_changes: 5,
}
const east = {
  ...other,
  name: 'east',
  number: 3,
  last_seen: null,
  applied_stream_sequence: null,
  unapplied_changes: null,
  unsent_changes: null,
}
const west = {
  ...other,
  name: 'west',
  number: 4,
  last_seen: '2026-11-22T15:03:59.000Z',
  applied_stream_sequence: 42,
  unapplied_changes: 0,
  unsent_changes: 0,
  applying_stopped: 'a change from site south needs schema level 31; this box is at 30: upgrade it',
}

describe('GET /api/sites/ on a site', () => {
  const t = useSeededApp({ site })
  const staff = useStaff(t, 'allButAdmin')

  test('without a token is 401', async () => {
    expectUnauthenticated(await t.request('GET', '/api/sites/'))
  })

  test('is 403 for staff without the admin flag, whatever else they may do', async () => {
    const res = await t.request('GET', '/api/sites/', { token: staff.allButAdmin.token })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbidden)
  })

  test('a page past the end is 404', async () => {
    const res = await t.request('GET', '/api/sites/?page=2', { token: t.seed.adminToken })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(invalidPage)
  })

  test('lists this box from its own state, and each other site from its last heartbeat, by number', async () => {
    threeMoreSites()
    const res = await t.request('GET', '/api/sites/', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ count: 4, next: null, previous: null, results: [north, south, east, west] })
  })

  test("this box's unsent changes, their age and why it stopped applying are its own, not its heartbeat's", async () => {
    site.local = {
      ...site.local,
      unsentRows: 7,
      oldestUnsentAgeSeconds: 95,
      appliedStreamSequence: 41,
      applyingStopped: 'a change from site south needs schema level 31; this box is at 30: upgrade it',
    }
    const res = await t.request('GET', '/api/sites/', { token: t.seed.adminToken })
    expect(res.body.results).toEqual([
      {
        ...north,
        applied_stream_sequence: 41,
        unapplied_changes: 1,
        unsent_changes: 7,
        oldest_unsent_age_seconds: 95,
        applying_stopped: 'a change from site south needs schema level 31; this box is at 30: upgrade it',
      },
    ])
  })

  test('is paginated as every list is', async () => {
    threeMoreSites()
    const res = await t.request('GET', '/api/sites/?page=2&page_size=2', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      count: 4,
      next: null,
      previous: 'http://localhost/api/sites/?page_size=2',
      results: [east, west],
    })
  })

  test('while the hub cannot be asked, lists this box alone, saying since when it is cut off', async () => {
    threeMoreSites()
    site.cutOff('2026-11-22T14:30:00.000Z')
    site.local = { ...site.local, unsentRows: 3, oldestUnsentAgeSeconds: 1200 }
    const res = await t.request('GET', '/api/sites/', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          ...north,
          last_seen: null,
          unapplied_changes: null,
          unsent_changes: 3,
          oldest_unsent_age_seconds: 1200,
          hub_reachable: false,
          hub_unreachable_since: '2026-11-22T14:30:00.000Z',
        },
      ],
    })
  })

  test("without the stream's last sequence, how far behind each site is stays unknown", async () => {
    threeMoreSites()
    site.lastSequence = null
    const res = await t.request('GET', '/api/sites/', { token: t.seed.adminToken })
    expect(res.body.results).toEqual([
      { ...north, unapplied_changes: null },
      { ...south, unapplied_changes: null },
      east,
      { ...west, unapplied_changes: null },
    ])
  })
})

describe('GET /api/sites/ on a box without a hub', () => {
  const t = useSeededApp()
  test('is an empty list', async () => {
    const res = await t.request('GET', '/api/sites/', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(emptyPage)
  })
})

describe('GET /api/sites/link/', () => {
  const t = useSeededApp({ site })

  test('without a token is 401', async () => {
    expectUnauthenticated(await t.request('GET', '/api/sites/link/'))
  })

  test('any staff user reads whether the box is cut off', async () => {
    const res = await t.request('GET', '/api/sites/link/', { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      site: 'north',
      hub_reachable: true,
      hub_unreachable_since: null,
      unsent_changes: 0,
    })
  })

  test('says since when the hub has been unreachable, and what waits to be sent', async () => {
    site.cutOff('2026-11-22T14:30:00.000Z')
    site.local = { ...site.local, unsentRows: 3 }
    const res = await t.request('GET', '/api/sites/link/', { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      site: 'north',
      hub_reachable: false,
      hub_unreachable_since: '2026-11-22T14:30:00.000Z',
      unsent_changes: 3,
    })
  })
})

describe('GET /api/sites/link/ on a box without a hub', () => {
  const t = useSeededApp()
  test('is every field null', async () => {
    const res = await t.request('GET', '/api/sites/link/', { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      site: null,
      hub_reachable: null,
      hub_unreachable_since: null,
      unsent_changes: null,
    })
  })
})

import { describe, expect, test } from 'bun:test'
import type { MembershipStatus } from '../../../src/db/schema.ts'
import { ALL_ROWS, useMembersReportSet } from '../../helpers/members-report-set.ts'

// GET /api/members/ filters and the statuses it never shows, over the set of
// test/helpers/members-report-set.ts (its table lists the rows). Rows, 400s, billing: members.test.ts.

const { t, s, get, names, expectNames } = useMembersReportSet()

describe('GET /api/members/ exclusions', () => {
  const excluded: Array<[MembershipStatus, string, string]> = [
    ['END', 'M8', 'Ada Alvarez'],
    ['PAY', 'M9', 'Quinn Nash'],
    ['IPC', 'M10', 'Rosa Ortiz'],
    ['CAN', 'M11', 'Sam Price'],
    ['DEN', 'M12', 'Tess Reyes'],
  ]
  for (const [status, label, name] of excluded) {
    test(`${status}: never shown, whatever status_in asks`, async () => {
      for (const query of [
        '',
        '?status_in=active,frozen,failed',
        '?status_in=active',
        `?membership_id=${s.types.monthly.id}`,
      ]) {
        const res = await get(query)
        expect(names(res.body)).not.toContain(`${name} ${label}`)
      }
      // The same membership made active is shown: only its status kept it out.
      await t.db
        .updateTable('customer_memberships')
        .set({ status: 'ACT' })
        .where('id', '=', s.m[label]!)
        .execute()
      const res = await get('?status_in=active')
      expect(names(res.body)).toContain(`${name} ${label}`)
    })
  }

  test('an individually frozen member of an excluded membership is not shown either', async () => {
    await t.db
      .updateTable('membership_members')
      .set({ is_frozen: 1 })
      .where('customer_membership_id', 'in', [s.m.M8!, s.m.M9!, s.m.M10!, s.m.M11!, s.m.M12!])
      .execute()
    await expectNames('?status_in=frozen', ['Cara Brooks M2', 'Gus Evans M3'])
  })
})

describe('GET /api/members/ filters', () => {
  const cases: Array<[string, () => string, string[]]> = [
    [
      'status_in=active (ACT, IPP, PPR; not the frozen member)',
      () => '?status_in=active',
      ['Ada Alvarez M1', 'Ada Alvarez M6', 'Ben Brooks M2', 'Eve de Luca M2', 'Jack Garcia M5'],
    ],
    [
      'status_in=frozen (the frozen membership and the frozen member)',
      () => '?status_in=frozen',
      ['Cara Brooks M2', 'Gus Evans M3'],
    ],
    [
      'status_in=failed (a frozen flag does not turn PAF into FRZ)',
      () => '?status_in=failed',
      ['Hana Fischer M4', 'Lee Ito M7'],
    ],
    [
      'status_in with two tokens, spaces and an empty one',
      () => '?status_in=%20frozen%20,,failed',
      ['Cara Brooks M2', 'Gus Evans M3', 'Hana Fischer M4', 'Lee Ito M7'],
    ],
    ['status_in empty: the default', () => '?status_in=', ALL_ROWS],
    [
      'status_in=active,frozen',
      () => '?status_in=active,frozen',
      ALL_ROWS.filter((n) => !/Hana|Lee/.test(n)),
    ],
    [
      'status_in=active,failed (the frozen member stays out)',
      () => '?status_in=failed,active',
      [
        'Ada Alvarez M1',
        'Ada Alvarez M6',
        'Ben Brooks M2',
        'Eve de Luca M2',
        'Hana Fischer M4',
        'Jack Garcia M5',
        'Lee Ito M7',
      ],
    ],
    ['status_in=active,frozen,failed', () => '?status_in=active,frozen,failed', ALL_ROWS],
    ['membership_id takes a type id', () => `?membership_id=${s.types.youth.id}`, ['Jack Garcia M5']],
    ['membership_id of a type with no members', () => `?membership_id=${s.types.unused.id}`, []],
    [
      'purchase_type=REC',
      () => '?purchase_type=REC',
      [
        'Ada Alvarez M1',
        'Ben Brooks M2',
        'Cara Brooks M2',
        'Eve de Luca M2',
        'Gus Evans M3',
        'Hana Fischer M4',
        'Lee Ito M7',
      ],
    ],
    ['purchase_type=PRE', () => '?purchase_type=PRE', ['Jack Garcia M5']],
    ['purchase_type=BEN', () => '?purchase_type=BEN', ['Ada Alvarez M6']],
    ['is_group=true', () => '?is_group=true', ['Ben Brooks M2', 'Cara Brooks M2', 'Eve de Luca M2']],
    [
      'is_group=FALSE (any case)',
      () => '?is_group=FALSE',
      ['Ada Alvarez M1', 'Ada Alvarez M6', 'Gus Evans M3', 'Hana Fischer M4', 'Jack Garcia M5', 'Lee Ito M7'],
    ],
    ['is_youth_programming=true', () => '?is_youth_programming=True', ['Jack Garcia M5']],
    [
      'is_youth_programming=false',
      () => '?is_youth_programming=false',
      ALL_ROWS.filter((n) => !n.startsWith('Jack')),
    ],
    ['add_on_name exact', () => '?add_on_name=Locker', ['Ada Alvarez M1']],
    ['add_on_name with a space', () => '?add_on_name=Towel%20Service', ['Ada Alvarez M1']],
    [
      'add_on_name of another member of the same membership',
      () => '?add_on_name=Locker%20XL',
      ['Ben Brooks M2'],
    ],
    ['add_on_name is not a substring match', () => '?add_on_name=Lock', []],
    ['add_on_name is case-sensitive', () => '?add_on_name=locker', []],
    [
      "home_location_id: the member's own",
      () => `?home_location_id=${s.north.id}`,
      ['Eve de Luca M2', 'Jack Garcia M5'],
    ],
    [
      'home_location_id of the downtown gym',
      () => `?home_location_id=${t.seed.gym.id}`,
      ['Ada Alvarez M1', 'Ada Alvarez M6', 'Ben Brooks M2', 'Cara Brooks M2', 'Gus Evans M3'],
    ],
    [
      'start_date_min: on or after the local day',
      () => '?start_date_min=2026-11-22',
      ['Ada Alvarez M1', 'Jack Garcia M5'],
    ],
    [
      'start_date_max: the whole local day inclusive',
      () => '?start_date_max=2026-11-21',
      [
        'Ada Alvarez M6',
        'Ben Brooks M2',
        'Cara Brooks M2',
        'Eve de Luca M2',
        'Gus Evans M3',
        'Hana Fischer M4',
        'Lee Ito M7',
      ],
    ],
    [
      'start_date_min and max on one day',
      () => '?start_date_min=2026-11-21&start_date_max=2026-11-21',
      ['Ben Brooks M2', 'Cara Brooks M2', 'Eve de Luca M2'],
    ],
    [
      'has_payment_method=true',
      () => '?has_payment_method=true',
      [
        'Ada Alvarez M1',
        'Ben Brooks M2',
        'Cara Brooks M2',
        'Eve de Luca M2',
        'Hana Fischer M4',
        'Lee Ito M7',
      ],
    ],
    [
      'has_payment_method=false',
      () => '?has_payment_method=false',
      ['Ada Alvarez M6', 'Gus Evans M3', 'Jack Garcia M5'],
    ],
    [
      'has_payment_method with any other value: without',
      () => '?has_payment_method=yes',
      ['Ada Alvarez M6', 'Gus Evans M3', 'Jack Garcia M5'],
    ],
    [
      'has_payment_method=TRUE (any case): with',
      () => '?has_payment_method=TRUE',
      ALL_ROWS.filter((n) => !/M6|Gus|Jack/.test(n)),
    ],
    ['has_payment_method empty: not filtered', () => '?has_payment_method=', ALL_ROWS],
    [
      'filters combine',
      () => `?status_in=active&is_group=true&home_location_id=${t.seed.gym.id}`,
      ['Ben Brooks M2'],
    ],
    ['unknown parameters are ignored', () => '?colour=blue&page=7', ALL_ROWS],
  ]
  for (const [name, query, expected] of cases) {
    test(name, () => expectNames(query(), expected))
  }
})

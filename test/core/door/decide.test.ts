import { describe, expect, test } from 'bun:test'
import { decideCheckIn } from '../../../src/core/door/decide.ts'
import {
  NO_WAIVER_ALERT,
  type CheckInDecision,
  type CheckInFacts,
  type FactsAlert,
  type FactsEntryPass,
  type FactsMembership,
  type FactsReservation,
} from '../../../src/core/door/facts.ts'
import { ordinal } from '../../../src/core/door/milestones.ts'
import type { AccessWindow } from '../../../src/domain/access-hours.ts'
import { ALL_STATUSES } from '../../../src/domain/membership-status.ts'
import type { MembershipStatus } from '../../../src/db/schema.ts'

/**
 * The door's decision as tables of named cases, each with the whole expected decision. Every instant
 * is written in UTC with its Denver wall-clock time beside it: MDT is UTC-6 until 2026-11-01 08:00Z
 * and from 2026-03-08 09:00Z, MST (UTC-7) otherwise.
 */
const ZONE = 'America/Denver'
/** The test clock's instant: Sunday 2026-11-22 08:04:05.123 MST. */
const NOW = '2026-11-22T15:04:05.123Z'
const FIVE_MINUTES = 5 * 60_000

const customer = {
  id: 41,
  first_name: 'Alex',
  last_name: 'Honnold',
  email: 'alex@example.com',
  is_active: true,
  check_in_count: 4,
  first_check_in_timestamp: '2026-01-10T17:00:00.000Z',
}

const alert = (alert_text: string, prevents_check_in: boolean): FactsAlert => ({
  alert_text,
  color_hex: prevents_check_in ? 'FF0000' : 'FFCC00',
  created_date: '2026-10-01',
  prevents_check_in,
})

const membership = (over: Partial<FactsMembership> = {}): FactsMembership => ({
  customer_membership_id: 7,
  status: 'ACT',
  member_is_frozen: false,
  start_date: '2026-01-01',
  end_date: null,
  purchase_type: 'REC',
  type_name: 'Adult Monthly',
  access_hours: null,
  guest_passes_per_month: 0,
  ...over,
})

const pass = (over: Partial<FactsEntryPass> = {}): FactsEntryPass => ({
  id: 3,
  name: '10 Punch Pass',
  entries_remaining: 4,
  expiry_date: '2027-05-31',
  purchaser_name: null,
  ...over,
})

const reservation = (over: Partial<FactsReservation> = {}): FactsReservation => ({
  reservation_id: 11,
  event_id: 5,
  event_name: 'Intro to Bouldering',
  start_at: '2026-11-22T15:00:00.000Z',
  end_at: '2026-11-22T16:30:00.000Z',
  includes_entry: true,
  ...over,
})

const win = (day: AccessWindow['day'], start: string, end: string): AccessWindow => ({ day, start, end })

/** Facts for an active customer with a valid waiver and nothing to enter with; `now` as a UTC string. */
function facts(over: Partial<Omit<CheckInFacts, 'now'>> & { now?: string } = {}): CheckInFacts {
  const { now = NOW, ...rest } = over
  return {
    now: new Date(now),
    zone: ZONE,
    customer,
    alerts: [],
    waiverRequired: true,
    hasValidWaiver: true,
    lastCheckInAt: null,
    duplicateWindowMs: FIVE_MINUTES,
    combineSameDay: false,
    sameDayCheckInId: null,
    reservationsNow: [],
    memberships: [],
    entryPasses: [],
    milestones: [1, 10, 25, 50, 100, 250, 500, 1000],
    ...rest,
  }
}

/** Facts with the default membership (id 7, any time) on top of `over`. */
const member = (over: Parameters<typeof facts>[0] = {}) => facts({ memberships: [membership()], ...over })

type Admit = Extract<CheckInDecision, { outcome: 'admit' }>

/** Admitted on the default membership unless `over` says otherwise; count 5 (4 before). */
const admitted = (over: Partial<Admit> = {}): CheckInDecision => ({
  outcome: 'admit',
  entryMethod: 'MEM',
  description: 'Adult Monthly',
  customerMembershipId: 7,
  entryPassId: null,
  reservationId: null,
  checkInCount: 5,
  milestones: [],
  customerAlerts: [],
  reservations: [],
  ...over,
})
const byPass = (description: string, entryPassId = 3, over: Partial<Admit> = {}) =>
  admitted({ entryMethod: 'ENT', description, customerMembershipId: null, entryPassId, ...over })
const byEvent = (over: Partial<Admit> = {}) =>
  admitted({
    entryMethod: 'EVE',
    description: 'Intro to Bouldering',
    customerMembershipId: null,
    reservationId: 11,
    ...over,
  })
const noEntry: CheckInDecision = { outcome: 'refuse', error: 'no_entry_method', alerts: [] }
const blocked = (...alerts: string[]): CheckInDecision => ({
  outcome: 'refuse',
  error: 'check_in_alerts',
  alerts,
})
const duplicate: CheckInDecision = { outcome: 'duplicate' }

type Case = [name: string, facts: CheckInFacts, expected: CheckInDecision]

function table(title: string, cases: Case[]): void {
  describe(title, () => {
    for (const [name, input, expected] of cases) {
      test(name, () => expect(decideCheckIn(input)).toStrictEqual(expected))
    }
  })
}

const owes = alert('Owes for chalk', true)
const banned = alert('Banned until Dec 1', true)
const belay = alert('Needs a belay check', false)
const birthday = alert('Birthday this week', false)

table('order of the rules: alerts, duplicate, same day, entry method', [
  ['nothing to enter with: no_entry_method', facts(), noEntry],
  ['a membership, no alerts, a waiver on file: admitted', member(), admitted()],
  ['an alert that prevents check-in', member({ alerts: [owes] }), blocked('Owes for chalk')],
  [
    'no valid waiver where one is required: the built-in alert',
    member({ hasValidWaiver: false }),
    blocked(NO_WAIVER_ALERT),
  ],
  [
    'no waiver where none is required: admitted',
    member({ waiverRequired: false, hasValidWaiver: false }),
    admitted(),
  ],
  [
    "the customer's blocking alerts in their order, then No waiver",
    member({ alerts: [banned, belay, owes], hasValidWaiver: false }),
    blocked('Banned until Dec 1', 'Owes for chalk', 'No waiver'),
  ],
  [
    'alerts that do not prevent check-in: admitted, shown to staff in their order',
    member({ alerts: [birthday, belay] }),
    admitted({ customerAlerts: [birthday, belay] }),
  ],
  [
    'a blocking alert refuses even beside ones that do not block',
    member({ alerts: [belay, owes] }),
    blocked('Owes for chalk'),
  ],
  ['alerts come before no_entry_method', facts({ alerts: [owes] }), blocked('Owes for chalk')],
  [
    'alerts come before a duplicate',
    member({ alerts: [owes], lastCheckInAt: '2026-11-22T15:03:05.123Z' }),
    blocked('Owes for chalk'),
  ],
  [
    'alerts come before combine-same-day',
    member({ hasValidWaiver: false, combineSameDay: true, sameDayCheckInId: 88 }),
    blocked(NO_WAIVER_ALERT),
  ],
  ['a duplicate needs no entry method', facts({ lastCheckInAt: '2026-11-22T15:03:05.123Z' }), duplicate],
  [
    'a duplicate comes before combine-same-day',
    member({ lastCheckInAt: '2026-11-22T15:03:05.123Z', combineSameDay: true, sameDayCheckInId: 88 }),
    duplicate,
  ],
  [
    'combine-same-day comes before the entry method (none needed)',
    facts({ combineSameDay: true, sameDayCheckInId: 88 }),
    { outcome: 'same_day', checkInId: 88 },
  ],
])

table('duplicate window (5 minutes, the bound counts as a duplicate)', [
  ['no earlier check-in at this gym', member(), admitted()],
  ['4:59 ago: duplicate', member({ lastCheckInAt: '2026-11-22T14:59:06.123Z' }), duplicate],
  ['exactly 5:00 ago: still a duplicate', member({ lastCheckInAt: '2026-11-22T14:59:05.123Z' }), duplicate],
  ['5:00.001 ago: admitted', member({ lastCheckInAt: '2026-11-22T14:59:05.122Z' }), admitted()],
  ['5:01 ago: admitted', member({ lastCheckInAt: '2026-11-22T14:58:05.123Z' }), admitted()],
  ['the same instant: duplicate', member({ lastCheckInAt: NOW }), duplicate],
  [
    'a last check-in stamped after now (the clock was set back): duplicate',
    member({ lastCheckInAt: '2026-11-22T16:00:00.000Z' }),
    duplicate,
  ],
  [
    'the window is a setting: 1:00 ago with a 1-minute window',
    member({ duplicateWindowMs: 60_000, lastCheckInAt: '2026-11-22T15:03:05.123Z' }),
    duplicate,
  ],
  [
    'the window is a setting: 1:01 ago with a 1-minute window',
    member({ duplicateWindowMs: 60_000, lastCheckInAt: '2026-11-22T15:03:04.123Z' }),
    admitted(),
  ],
])

table('combine same-day check-ins', [
  [
    'a combining gym, already checked in today: the same check-in',
    member({ combineSameDay: true, sameDayCheckInId: 88 }),
    { outcome: 'same_day', checkInId: 88 },
  ],
  ['a combining gym, first check-in today: admitted', member({ combineSameDay: true }), admitted()],
  ['a combining gym, first today and no entry method: refused', facts({ combineSameDay: true }), noEntry],
  [
    'a gym that does not combine ignores an earlier check-in today',
    member({ combineSameDay: false, sameDayCheckInId: 88 }),
    admitted(),
  ],
])

table('entry method precedence: EVE, then MEM, then ENT', [
  [
    'EVE: a reservation happening now that includes entry',
    facts({ reservationsNow: [reservation()] }),
    byEvent({ reservations: [reservation()] }),
  ],
  [
    'EVE before a membership and a pass (the pass keeps its entries)',
    member({ reservationsNow: [reservation()], entryPasses: [pass()] }),
    byEvent({ reservations: [reservation()] }),
  ],
  ['MEM before a pass', member({ entryPasses: [pass()] }), admitted()],
  ['ENT when there is only a pass', facts({ entryPasses: [pass()] }), byPass('10 Punch Pass (3 remaining)')],
  [
    'a reservation without entry does not admit, but is listed',
    member({ reservationsNow: [reservation({ includes_entry: false })] }),
    admitted({ reservations: [reservation({ includes_entry: false })] }),
  ],
  [
    'a reservation without entry alone: no_entry_method',
    facts({ reservationsNow: [reservation({ includes_entry: false })] }),
    noEntry,
  ],
  [
    'every reservation happening now is listed, the entry comes from the one that includes it',
    facts({ reservationsNow: [reservation({ reservation_id: 30, includes_entry: false }), reservation()] }),
    byEvent({ reservations: [reservation({ reservation_id: 30, includes_entry: false }), reservation()] }),
  ],
  [
    'two reservations with entry: the earliest start',
    facts({
      reservationsNow: [
        reservation(),
        reservation({ reservation_id: 20, event_name: 'Yoga', start_at: '2026-11-22T14:30:00.000Z' }),
      ],
    }),
    byEvent({
      description: 'Yoga',
      reservationId: 20,
      reservations: [
        reservation(),
        reservation({ reservation_id: 20, event_name: 'Yoga', start_at: '2026-11-22T14:30:00.000Z' }),
      ],
    }),
  ],
  [
    'two reservations with entry starting together: the lowest id',
    facts({ reservationsNow: [reservation({ reservation_id: 20, event_name: 'Yoga' }), reservation()] }),
    byEvent({ reservations: [reservation({ reservation_id: 20, event_name: 'Yoga' }), reservation()] }),
  ],
  [
    'a membership that does not admit falls through to the pass',
    facts({ memberships: [membership({ status: 'PAF' })], entryPasses: [pass()] }),
    byPass('10 Punch Pass (3 remaining)'),
  ],
  [
    'several memberships admit: the lowest id',
    facts({
      memberships: [
        membership({ customer_membership_id: 12, type_name: 'Yoga Unlimited' }),
        membership({ customer_membership_id: 5 }),
      ],
    }),
    admitted({ customerMembershipId: 5 }),
  ],
  [
    'the lowest id that admits: a lower one outside its hours is passed over',
    facts({
      memberships: [
        membership({
          customer_membership_id: 2,
          type_name: 'Off Peak',
          access_hours: [win('MON', '06:00', '10:00')],
        }),
        membership({ customer_membership_id: 8 }),
      ],
    }),
    admitted({ customerMembershipId: 8 }),
  ],
])

const STATUS_TABLE: Array<[MembershipStatus, string, boolean]> = [
  ['ACT', 'active', true],
  ['IPP', 'initial payment processing (active)', true],
  ['PPR', 'renewal payment processing (active)', true],
  ['FRZ', 'frozen', false],
  ['FPR', 'freeze payment processing (frozen)', false],
  ['PAF', 'renewal payment failed', false],
  ['FPF', 'freeze payment failed', false],
  ['PAY', 'awaiting initial payment (excluded)', false],
  ['IPC', 'not yet started (excluded)', false],
  ['CAN', 'cancelled (excluded)', false],
  ['END', 'ended (excluded)', false],
  ['DEN', 'denied (excluded)', false],
]

test('the status table covers every membership status', () => {
  expect(STATUS_TABLE.map(([status]) => status).sort()).toEqual([...ALL_STATUSES].sort())
})

table(
  'membership statuses',
  STATUS_TABLE.map(([status, name, admits]): Case => [
    `${status} ${name}: ${admits ? 'admitted' : 'no_entry_method'}`,
    facts({ memberships: [membership({ status })] }),
    admits ? admitted() : noEntry,
  ]),
)

table('a frozen member of an active group membership', [
  [
    'refused on that membership',
    facts({ memberships: [membership({ type_name: 'Family', member_is_frozen: true })] }),
    noEntry,
  ],
  [
    'enters on a pass instead',
    facts({
      memberships: [membership({ type_name: 'Family', member_is_frozen: true })],
      entryPasses: [pass()],
    }),
    byPass('10 Punch Pass (3 remaining)'),
  ],
  [
    'enters on another active membership',
    facts({
      memberships: [
        membership({ customer_membership_id: 3, type_name: 'Family', member_is_frozen: true }),
        membership({ customer_membership_id: 9 }),
      ],
    }),
    admitted({ customerMembershipId: 9 }),
  ],
])

/** One membership (defaults above, with `over`) judged at `now`. */
const holding = (over: Partial<FactsMembership>, now: string) =>
  facts({ now, memberships: [membership(over)] })

table('membership start and end dates (today in the gym zone)', [
  ['started yesterday', holding({ start_date: '2026-11-21' }, NOW), admitted()],
  [
    'starts today, at local midnight',
    holding({ start_date: '2026-11-22' }, '2026-11-22T07:00:00.000Z'),
    admitted(),
  ],
  [
    'starts tomorrow: refused at 23:59:59 local (already tomorrow in UTC)',
    holding({ start_date: '2026-11-23' }, '2026-11-23T06:59:59.999Z'),
    noEntry,
  ],
  [
    'starts tomorrow: admitted from local midnight',
    holding({ start_date: '2026-11-23' }, '2026-11-23T07:00:00.000Z'),
    admitted(),
  ],
  ['prepaid, no end date', holding({ purchase_type: 'PRE', end_date: null }, NOW), admitted()],
  [
    'prepaid ending today: admitted at 23:59:59 local',
    holding({ purchase_type: 'PRE', end_date: '2026-11-22' }, '2026-11-23T06:59:59.999Z'),
    admitted(),
  ],
  [
    'prepaid that ended yesterday: refused from local midnight',
    holding({ purchase_type: 'PRE', end_date: '2026-11-22' }, '2026-11-23T07:00:00.000Z'),
    noEntry,
  ],
  [
    'a one-day prepaid membership on its day',
    holding({ purchase_type: 'PRE', start_date: '2026-11-22', end_date: '2026-11-22' }, NOW),
    admitted(),
  ],
  ['benefit ending today', holding({ purchase_type: 'BEN', end_date: '2026-11-22' }, NOW), admitted()],
  ['benefit that ended yesterday', holding({ purchase_type: 'BEN', end_date: '2026-11-21' }, NOW), noEntry],
  [
    'recurring, active, next bill date yesterday: the status decides, admitted',
    holding({ purchase_type: 'REC', end_date: '2026-11-21' }, NOW),
    admitted(),
  ],
  [
    'recurring, renewal processing, next bill date yesterday: admitted',
    holding({ purchase_type: 'REC', status: 'PPR', end_date: '2026-11-21' }, NOW),
    admitted(),
  ],
  [
    'recurring whose renewal failed: refused',
    holding({ purchase_type: 'REC', status: 'PAF', end_date: '2026-11-21' }, NOW),
    noEntry,
  ],
  [
    'recurring, next bill date ahead',
    holding({ purchase_type: 'REC', end_date: '2026-12-22' }, NOW),
    admitted(),
  ],
])

/** One membership with these access hours, judged at `now`. */
const hours = (windows: AccessWindow[] | null, now: string) => holding({ access_hours: windows }, now)
const MORNINGS = [win('SUN', '06:00', '10:00')]
const LATE_SATURDAY = [win('SAT', '22:00', '24:00')]
const FALL_BACK = [win('SUN', '01:30', '02:00')]
const SPRING_GAP_START = [win('SUN', '02:30', '03:30')]
const SPRING_GAP_ONLY = [win('SUN', '02:00', '03:00')]
const ACROSS_SPRING_GAP = [win('SUN', '01:00', '03:00')]

table('access hours in the gym zone (start inclusive, end exclusive)', [
  ['null: any time (Sun 03:00)', hours(null, '2026-11-22T10:00:00.000Z'), admitted()],
  ['an empty list: never', hours([], NOW), noEntry],
  ['inside (Sun 08:04)', hours(MORNINGS, NOW), admitted()],
  ['at the start (Sun 06:00:00.000)', hours(MORNINGS, '2026-11-22T13:00:00.000Z'), admitted()],
  [
    'the millisecond before the start (Sun 05:59:59.999)',
    hours(MORNINGS, '2026-11-22T12:59:59.999Z'),
    noEntry,
  ],
  ['the last millisecond (Sun 09:59:59.999)', hours(MORNINGS, '2026-11-22T16:59:59.999Z'), admitted()],
  ['at the end (Sun 10:00)', hours(MORNINGS, '2026-11-22T17:00:00.000Z'), noEntry],
  ['the same hours on another day (Mon 08:00)', hours(MORNINGS, '2026-11-23T15:00:00.000Z'), noEntry],
  [
    'one of several windows is enough (Sun 19:00)',
    hours([win('MON', '06:00', '10:00'), win('SUN', '18:00', '22:00')], '2026-11-23T02:00:00.000Z'),
    admitted(),
  ],
  [
    'judged on the local day: Sat 20:00 local is Sunday in UTC',
    hours([win('SAT', '18:00', '22:00')], '2026-11-22T03:00:00.000Z'),
    admitted(),
  ],
  [
    'not on the UTC wall clock: Sun 03:00 UTC is Sat 20:00 local',
    hours([win('SUN', '03:00', '04:00')], '2026-11-22T03:00:00.000Z'),
    noEntry,
  ],
  [
    'in summer time (Wed 06:00 MDT)',
    hours([win('WED', '06:00', '10:00')], '2026-07-15T12:00:00.000Z'),
    admitted(),
  ],
  [
    'in summer time, before the start (Wed 05:59:59 MDT)',
    hours([win('WED', '06:00', '10:00')], '2026-07-15T11:59:59.000Z'),
    noEntry,
  ],
  [
    'a window to 24:00, its last minute (Sat 23:59:59.999)',
    hours(LATE_SATURDAY, '2026-11-22T06:59:59.999Z'),
    admitted(),
  ],
  [
    'a window to 24:00, at midnight (Sun 00:00) it is over',
    hours(LATE_SATURDAY, '2026-11-22T07:00:00.000Z'),
    noEntry,
  ],
  [
    "the next day's window from 00:00 (Sun 00:00)",
    hours([win('SUN', '00:00', '06:00')], '2026-11-22T07:00:00.000Z'),
    admitted(),
  ],
])

table('access hours across DST in America/Denver (judged on the wall clock)', [
  // Fall back, Sunday 2026-11-01: 01:00-02:00 happens twice, first MDT then MST.
  ['fall back, window 01:30-02:00: 01:29:59 MDT', hours(FALL_BACK, '2026-11-01T07:29:59.000Z'), noEntry],
  ['fall back, window 01:30-02:00: 01:30 MDT', hours(FALL_BACK, '2026-11-01T07:30:00.000Z'), admitted()],
  [
    'fall back, window 01:30-02:00: 01:00 MST (the hour again)',
    hours(FALL_BACK, '2026-11-01T08:00:00.000Z'),
    noEntry,
  ],
  [
    'fall back, window 01:30-02:00: 01:30 MST, open a second time',
    hours(FALL_BACK, '2026-11-01T08:30:00.000Z'),
    admitted(),
  ],
  ['fall back, window 01:30-02:00: 01:59:59 MST', hours(FALL_BACK, '2026-11-01T08:59:59.000Z'), admitted()],
  ['fall back, window 01:30-02:00: 02:00 MST', hours(FALL_BACK, '2026-11-01T09:00:00.000Z'), noEntry],
  // Spring forward, Sunday 2026-03-08: 01:59:59 MST is followed by 03:00 MDT.
  [
    'spring forward, window 02:30-03:30: 01:59:59 MST',
    hours(SPRING_GAP_START, '2026-03-08T08:59:59.000Z'),
    noEntry,
  ],
  [
    'spring forward, window 02:30-03:30: opens at 03:00 MDT, the first minute after its start',
    hours(SPRING_GAP_START, '2026-03-08T09:00:00.000Z'),
    admitted(),
  ],
  [
    'spring forward, window 02:30-03:30: 03:29:59 MDT',
    hours(SPRING_GAP_START, '2026-03-08T09:29:59.000Z'),
    admitted(),
  ],
  [
    'spring forward, window 02:30-03:30: 03:30 MDT',
    hours(SPRING_GAP_START, '2026-03-08T09:30:00.000Z'),
    noEntry,
  ],
  [
    'spring forward, window 02:00-03:00 (all skipped): 01:59:59 MST',
    hours(SPRING_GAP_ONLY, '2026-03-08T08:59:59.000Z'),
    noEntry,
  ],
  [
    'spring forward, window 02:00-03:00 (all skipped): 03:00 MDT',
    hours(SPRING_GAP_ONLY, '2026-03-08T09:00:00.000Z'),
    noEntry,
  ],
  [
    'spring forward, window 01:00-03:00 (one real hour): 01:59:59 MST',
    hours(ACROSS_SPRING_GAP, '2026-03-08T08:59:59.000Z'),
    admitted(),
  ],
  [
    'spring forward, window 01:00-03:00 (one real hour): 03:00 MDT',
    hours(ACROSS_SPRING_GAP, '2026-03-08T09:00:00.000Z'),
    noEntry,
  ],
])

/** One pass (defaults above, with `over`) judged at `now`. */
const holdingPass = (over: Partial<FactsEntryPass>, now: string) => facts({ now, entryPasses: [pass(over)] })

table('entry pass expiry (usable through the end of its day in the gym zone)', [
  [
    'expiring today, 23:59 local',
    holdingPass({ expiry_date: '2026-11-22' }, '2026-11-23T06:59:00.000Z'),
    byPass('10 Punch Pass (3 remaining)'),
  ],
  [
    'expiring today, the last millisecond before local midnight',
    holdingPass({ expiry_date: '2026-11-22' }, '2026-11-23T06:59:59.999Z'),
    byPass('10 Punch Pass (3 remaining)'),
  ],
  [
    'expired at local midnight',
    holdingPass({ expiry_date: '2026-11-22' }, '2026-11-23T07:00:00.000Z'),
    noEntry,
  ],
  [
    'expired, the first minute after (00:01 local)',
    holdingPass({ expiry_date: '2026-11-22' }, '2026-11-23T07:01:00.000Z'),
    noEntry,
  ],
  [
    'expiring on the fall-back day: usable until midnight MST (UTC-7)',
    holdingPass({ expiry_date: '2026-11-01' }, '2026-11-02T06:59:00.000Z'),
    byPass('10 Punch Pass (3 remaining)'),
  ],
  [
    'expiring on the spring-forward day: usable until midnight MDT (UTC-6)',
    holdingPass({ expiry_date: '2026-03-08' }, '2026-03-09T05:59:00.000Z'),
    byPass('10 Punch Pass (3 remaining)'),
  ],
  [
    'expiring on the spring-forward day: expired at midnight MDT',
    holdingPass({ expiry_date: '2026-03-08' }, '2026-03-09T06:00:00.000Z'),
    noEntry,
  ],
  [
    'no expiry date never expires',
    holdingPass({ expiry_date: null }, '2040-01-01T00:00:00.000Z'),
    byPass('10 Punch Pass (3 remaining)'),
  ],
])

table('which pass: soonest expiry, no expiry last, ties by id, empty and expired skipped', [
  [
    'the one expiring soonest',
    facts({
      entryPasses: [pass({ id: 1, expiry_date: '2027-01-01' }), pass({ id: 2, expiry_date: '2026-12-01' })],
    }),
    byPass('10 Punch Pass (3 remaining)', 2),
  ],
  [
    'one expiring today before one expiring tomorrow',
    facts({
      entryPasses: [pass({ id: 1, expiry_date: '2026-11-23' }), pass({ id: 2, expiry_date: '2026-11-22' })],
    }),
    byPass('10 Punch Pass (3 remaining)', 2),
  ],
  [
    'no expiry date comes last',
    facts({ entryPasses: [pass({ id: 1, expiry_date: null }), pass({ id: 2, expiry_date: '2030-06-01' })] }),
    byPass('10 Punch Pass (3 remaining)', 2),
  ],
  [
    'only a pass without expiry',
    facts({ entryPasses: [pass({ expiry_date: null })] }),
    byPass('10 Punch Pass (3 remaining)'),
  ],
  [
    'zero entries left is skipped',
    facts({
      entryPasses: [
        pass({ id: 1, expiry_date: '2026-12-01', entries_remaining: 0 }),
        pass({ id: 2, expiry_date: '2027-01-01', entries_remaining: 5 }),
      ],
    }),
    byPass('10 Punch Pass (4 remaining)', 2),
  ],
  [
    'an expired pass is skipped',
    facts({
      entryPasses: [pass({ id: 1, expiry_date: '2026-11-21' }), pass({ id: 2, expiry_date: '2027-01-01' })],
    }),
    byPass('10 Punch Pass (3 remaining)', 2),
  ],
  [
    'the same expiry date: the lowest id',
    facts({
      entryPasses: [pass({ id: 9, expiry_date: '2026-12-01' }), pass({ id: 4, expiry_date: '2026-12-01' })],
    }),
    byPass('10 Punch Pass (3 remaining)', 4),
  ],
  [
    'both without expiry: the lowest id',
    facts({ entryPasses: [pass({ id: 8, expiry_date: null }), pass({ id: 6, expiry_date: null })] }),
    byPass('10 Punch Pass (3 remaining)', 6),
  ],
  [
    'every pass used up or expired: no_entry_method',
    facts({
      entryPasses: [pass({ id: 1, entries_remaining: 0 }), pass({ id: 2, expiry_date: '2026-11-01' })],
    }),
    noEntry,
  ],
])

table('entry_method_description', [
  [
    'a membership: its type name',
    facts({ memberships: [membership({ type_name: 'Student 10-Month' })] }),
    admitted({ description: 'Student 10-Month' }),
  ],
  [
    'an event: its name',
    facts({ reservationsNow: [reservation({ event_name: 'Youth Team' })] }),
    byEvent({ description: 'Youth Team', reservations: [reservation({ event_name: 'Youth Team' })] }),
  ],
  [
    'a pass the customer bought, N after this entry',
    facts({ entryPasses: [pass()] }),
    byPass('10 Punch Pass (3 remaining)'),
  ],
  [
    'a pass someone else bought',
    facts({ entryPasses: [pass({ purchaser_name: 'Lynn Hill' })] }),
    byPass('10 Punch Pass from Lynn Hill (3 remaining)'),
  ],
  [
    'the last entry of a pass',
    facts({ entryPasses: [pass({ name: 'Day Pass', entries_remaining: 1 })] }),
    byPass('Day Pass (0 remaining)'),
  ],
  [
    'the last entry of a gifted pass',
    facts({ entryPasses: [pass({ name: 'Day Pass', entries_remaining: 1, purchaser_name: 'Lynn Hill' })] }),
    byPass('Day Pass from Lynn Hill (0 remaining)'),
  ],
])

/** The default membership with `before` check-ins already recorded and these organization milestones. */
const counted = (before: number, milestones?: number[]) =>
  member({ customer: { ...customer, check_in_count: before }, ...(milestones ? { milestones } : {}) })

table('check-in count and milestones', [
  ['the first check-in ever', counted(0), admitted({ checkInCount: 1, milestones: ['1st check-in'] })],
  ['the 10th', counted(9), admitted({ checkInCount: 10, milestones: ['10th check-in'] })],
  ['just past a milestone', counted(10), admitted({ checkInCount: 11, milestones: [] })],
  ['not a milestone', counted(4), admitted({ checkInCount: 5, milestones: [] })],
  ['the 1000th', counted(999), admitted({ checkInCount: 1000, milestones: ['1000th check-in'] })],
  [
    "the organization's own list: 22nd",
    counted(21, [22, 23, 111]),
    admitted({ checkInCount: 22, milestones: ['22nd check-in'] }),
  ],
  [
    "the organization's own list: 23rd",
    counted(22, [22, 23, 111]),
    admitted({ checkInCount: 23, milestones: ['23rd check-in'] }),
  ],
  [
    "the organization's own list: 111th",
    counted(110, [22, 23, 111]),
    admitted({ checkInCount: 111, milestones: ['111th check-in'] }),
  ],
  [
    'a milestone listed twice gives one text',
    counted(9, [10, 10]),
    admitted({ checkInCount: 10, milestones: ['10th check-in'] }),
  ],
  ['no milestones configured', counted(0, []), admitted({ checkInCount: 1, milestones: [] })],
  [
    'an entry pass check-in counts too',
    facts({ customer: { ...customer, check_in_count: 24 }, entryPasses: [pass()] }),
    byPass('10 Punch Pass (3 remaining)', 3, { checkInCount: 25, milestones: ['25th check-in'] }),
  ],
])

describe('English ordinals', () => {
  const cases: Array<[number, string]> = [
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [10, '10th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [24, '24th'],
    [100, '100th'],
    [101, '101st'],
    [102, '102nd'],
    [103, '103rd'],
    [111, '111th'],
    [112, '112th'],
    [113, '113th'],
    [121, '121st'],
    [1001, '1001st'],
    [1011, '1011th'],
  ]
  for (const [n, text] of cases) test(`${n} -> ${text}`, () => expect(ordinal(n)).toBe(text))
})

import type { BillingInterval, ProductStatus, PurchaseType } from '../db/schema.ts'
import type { AccessWindow } from '../domain/access-hours.ts'

/**
 * The demo's product catalog as data: membership types, add-ons, entry pass types, event categories
 * and event types (what the desk sells besides, and the terms of its sales, are in sales-catalog.ts). Prices are
 * cents. `gymIndex` ties a product to the nth demo gym (skipped when there are fewer).
 */

export type MembershipKey =
  | 'monthly'
  | 'annual'
  | 'fourWeek'
  | 'studentWeekly'
  | 'biweekly'
  | 'quarterly'
  | 'halfYear'
  | 'offPeak'
  | 'boulderOnly'
  | 'goldenOnly'
  | 'legacy'
  | 'duo'
  | 'family'
  | 'youthMonthly'
  | 'youthTeam'
  | 'intro30'
  | 'prepaid3'
  | 'prepaidYear'
  | 'staffBenefit'
  | 'summerDraft'

const weekdays = (start: string, end: string): AccessWindow[] =>
  (['MON', 'TUE', 'WED', 'THU', 'FRI'] as const).map((day) => ({ day, start, end }))

/** Off-peak: weekday daytime and late weekend evenings, in the gym's zone. */
const OFF_PEAK_HOURS: readonly AccessWindow[] = [
  ...weekdays('06:00', '16:00'),
  { day: 'SAT', start: '19:00', end: '22:00' },
  { day: 'SUN', start: '18:00', end: '21:00' },
]

export interface MembershipSpec {
  key: MembershipKey
  name: string
  description: string
  status?: ProductStatus
  purchase_type: PurchaseType
  interval?: BillingInterval
  price: number
  is_group?: boolean
  is_youth?: boolean
  duration?: { years?: number; months?: number; days?: number }
  gymIndex?: number
  access_hours?: readonly AccessWindow[]
  guest_passes?: number
}

export const MEMBERSHIPS: MembershipSpec[] = [
  {
    key: 'monthly',
    name: 'Adult Monthly',
    description: 'Unlimited climbing at every location, billed monthly.',
    purchase_type: 'REC',
    interval: 'MON',
    price: 8900,
    guest_passes: 1,
  },
  {
    key: 'annual',
    name: 'Adult Annual',
    description: 'A year of unlimited climbing, billed yearly.',
    purchase_type: 'REC',
    interval: 'YRL',
    price: 89900,
    guest_passes: 2,
  },
  {
    key: 'fourWeek',
    name: 'Adult Four-Week',
    description: 'Unlimited climbing, billed every four weeks.',
    purchase_type: 'REC',
    interval: 'FWK',
    price: 8200,
  },
  {
    key: 'studentWeekly',
    name: 'Student Weekly',
    description: 'For students with a valid ID, billed weekly.',
    purchase_type: 'REC',
    interval: 'WEE',
    price: 1900,
  },
  {
    key: 'biweekly',
    name: 'Adult Biweekly',
    description: 'Unlimited climbing, billed every two weeks.',
    purchase_type: 'REC',
    interval: 'BWK',
    price: 4300,
  },
  {
    key: 'quarterly',
    name: 'Adult Quarterly',
    description: 'Unlimited climbing, billed every three months.',
    purchase_type: 'REC',
    interval: 'QUA',
    price: 24900,
  },
  {
    key: 'halfYear',
    name: 'Adult Six-Month',
    description: 'Unlimited climbing, billed every six months.',
    purchase_type: 'REC',
    interval: 'HYR',
    price: 47900,
  },
  {
    key: 'offPeak',
    name: 'Off-Peak Monthly',
    description: 'Weekdays until 4 pm and late weekend evenings.',
    purchase_type: 'REC',
    interval: 'MON',
    price: 5900,
    access_hours: OFF_PEAK_HOURS,
  },
  {
    key: 'boulderOnly',
    name: 'Boulder Local Monthly',
    description: 'Unlimited climbing at the Boulder gym only.',
    purchase_type: 'REC',
    interval: 'MON',
    price: 7400,
    gymIndex: 1,
  },
  {
    key: 'goldenOnly',
    name: 'Golden Local Monthly',
    description: 'Unlimited climbing at the Golden gym only.',
    purchase_type: 'REC',
    interval: 'MON',
    price: 6900,
    gymIndex: 2,
  },
  {
    key: 'legacy',
    name: 'Founders Monthly (legacy)',
    description: 'The opening-year rate; no longer sold.',
    status: 'RET',
    purchase_type: 'REC',
    interval: 'MON',
    price: 6500,
    guest_passes: 2,
  },
  {
    key: 'duo',
    name: 'Duo Monthly',
    description: 'Two climbers in one household.',
    purchase_type: 'REC',
    interval: 'MON',
    price: 15900,
    is_group: true,
    guest_passes: 1,
  },
  {
    key: 'family',
    name: 'Family Monthly',
    description: 'Up to two adults and their children under 18.',
    purchase_type: 'REC',
    interval: 'MON',
    price: 19900,
    is_group: true,
    guest_passes: 2,
  },
  {
    key: 'youthMonthly',
    name: 'Youth Monthly (under 18)',
    description: 'Unlimited climbing for climbers under 18.',
    purchase_type: 'REC',
    interval: 'MON',
    price: 5400,
  },
  {
    key: 'youthTeam',
    name: 'Youth Climbing Team',
    description: 'Coached practice twice a week plus unlimited climbing.',
    purchase_type: 'REC',
    interval: 'MON',
    price: 16500,
    is_youth: true,
  },
  {
    key: 'intro30',
    name: '30-Day Intro',
    description: 'Thirty days of unlimited climbing for new climbers.',
    purchase_type: 'PRE',
    price: 6900,
    duration: { days: 30 },
  },
  {
    key: 'prepaid3',
    name: '3-Month Prepaid',
    description: 'Three months of unlimited climbing, paid up front.',
    purchase_type: 'PRE',
    price: 25900,
    duration: { months: 3 },
  },
  {
    key: 'prepaidYear',
    name: 'Annual Prepaid',
    description: 'A year of unlimited climbing, paid up front.',
    purchase_type: 'PRE',
    price: 84900,
    duration: { years: 1 },
  },
  {
    key: 'staffBenefit',
    name: 'Staff Climbing Benefit',
    description: 'For employees and route setters.',
    purchase_type: 'BEN',
    price: 0,
  },
  {
    key: 'summerDraft',
    name: 'Summer Unlimited',
    description: 'Being prepared for next summer.',
    status: 'DRA',
    purchase_type: 'PRE',
    price: 19900,
    duration: { months: 3 },
  },
]

export const ADD_ONS = [
  {
    id: 'locker',
    name: 'Locker Rental',
    fee: 1500,
    color: '2563EB',
    initials: 'LK',
    visible: 1,
    adultsOnly: false,
    share: 0.07,
    code: '4210',
  },
  {
    id: 'gear',
    name: 'Gear Rental',
    fee: 1200,
    color: '16A34A',
    initials: 'GR',
    visible: 1,
    adultsOnly: false,
    share: 0.05,
    code: '4220',
  },
  {
    id: 'yoga',
    name: 'Yoga Classes',
    fee: 2500,
    color: '9333EA',
    initials: 'YG',
    visible: 1,
    adultsOnly: true,
    share: 0.06,
    code: '4230',
  },
  {
    id: 'fitness',
    name: 'Fitness Classes',
    fee: 2000,
    color: 'EA580C',
    initials: 'FT',
    visible: 1,
    adultsOnly: true,
    share: 0.04,
    code: '4240',
  },
  {
    id: 'towel',
    name: 'Towel Service',
    fee: 500,
    color: '64748B',
    initials: 'TW',
    visible: 0,
    adultsOnly: true,
    share: 0.01,
    code: '4250',
  },
] as const

export const ENTRY_PASSES = [
  { key: 'day', name: 'Day Pass', status: 'ACT', entries: 1, validDays: null, price: 2400 },
  {
    key: 'youthDay',
    name: 'Youth Day Pass (under 18)',
    status: 'ACT',
    entries: 1,
    validDays: null,
    price: 1600,
  },
  { key: 'punch5', name: '5-Punch Card', status: 'ACT', entries: 5, validDays: 180, price: 11000 },
  { key: 'punch10', name: '10-Punch Card', status: 'ACT', entries: 10, validDays: 365, price: 20000 },
  {
    key: 'punch20',
    name: '20-Punch Card (retired)',
    status: 'RET',
    entries: 20,
    validDays: 365,
    price: 36000,
  },
] as const

/** What the event types are filed under: each type names its categories by key. */
export const EVENT_CATEGORIES = [
  { key: 'youth', name: 'Youth' },
  { key: 'instruction', name: 'Instruction' },
  { key: 'fitness', name: 'Fitness' },
  { key: 'community', name: 'Community' },
] as const

/**
 * `price` is what booking one of its events costs; the youth team's practice comes with its
 * membership. Most are weekly classes; Learn to Belay is a course of sessions booked as one, and the
 * technique clinic an open session climbers join any time it runs.
 */
export const EVENT_TYPES = [
  {
    key: 'yoga',
    name: 'Yoga for Climbers',
    capacity: 20,
    listed: 1,
    status: 'ACT',
    price: 1500,
    schedule: 'recurring',
    categories: ['fitness'],
  },
  {
    key: 'intro',
    name: 'Intro to Bouldering',
    capacity: 8,
    listed: 1,
    status: 'ACT',
    price: 3500,
    schedule: 'recurring',
    categories: ['instruction'],
  },
  {
    key: 'belay',
    name: 'Learn to Belay',
    capacity: 6,
    listed: 1,
    status: 'ACT',
    price: 4500,
    schedule: 'multi_part',
    categories: ['instruction'],
  },
  {
    key: 'youth',
    name: 'Youth Team Practice',
    capacity: 16,
    listed: 0,
    status: 'ACT',
    price: 0,
    schedule: 'recurring',
    categories: ['youth', 'fitness'],
  },
  {
    key: 'clinic',
    name: 'Technique Clinic',
    capacity: 12,
    listed: 1,
    status: 'ACT',
    price: 4000,
    schedule: 'rolling',
    categories: ['instruction'],
  },
  {
    key: 'outdoor',
    name: 'Outdoor Trip: Eldorado Canyon',
    capacity: 8,
    listed: 1,
    status: 'RET',
    price: 9500,
    schedule: 'recurring',
    categories: ['community'],
  },
] as const

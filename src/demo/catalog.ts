import type { BillingInterval, ProductStatus, PurchaseType } from '../db/schema.ts'

/**
 * The demo's product catalog as data: membership types, add-ons, entry pass types, event types,
 * and what the desk sells besides (tax rates, discounts, voucher packs, retail). Prices are cents.
 * `gymIndex` ties a product to the nth demo gym (skipped when there are fewer).
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

const weekdays = (start: string, end: string) =>
  ['MON', 'TUE', 'WED', 'THU', 'FRI'].map((day) => ({ day, start, end }))

/** Off-peak: weekday daytime and late weekend evenings, in the gym's zone. */
const OFF_PEAK_HOURS = [
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
  access_hours?: unknown
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

/** `price` is what booking one of its events costs; the youth team's practice comes with its membership. */
export const EVENT_TYPES = [
  { key: 'yoga', name: 'Yoga for Climbers', capacity: 20, listed: 1, status: 'ACT', price: 1500 },
  { key: 'intro', name: 'Intro to Bouldering', capacity: 8, listed: 1, status: 'ACT', price: 3500 },
  { key: 'belay', name: 'Learn to Belay', capacity: 6, listed: 1, status: 'ACT', price: 4500 },
  { key: 'youth', name: 'Youth Team Practice', capacity: 16, listed: 0, status: 'ACT', price: 0 },
  { key: 'clinic', name: 'Technique Clinic', capacity: 12, listed: 1, status: 'ACT', price: 4000 },
  {
    key: 'outdoor',
    name: 'Outdoor Trip: Eldorado Canyon',
    capacity: 8,
    listed: 1,
    status: 'RET',
    price: 9500,
  },
] as const

/**
 * Revenue account codes: memberships, their freeze fees, entry passes, classes and vouchers,
 * retail goods and rentals; the add-ons carry their own per gym.
 */
export const REVENUE_ACCOUNTS = {
  membership: '4100',
  prepaid: '4110',
  freezeFee: '4150',
  entryPass: '4000',
  event: '4400',
  retail: '4300',
  rental: '4310',
  fees: '4900',
} as const

/** Goods are taxed at the sales rate, rented gear at the rental rate; admissions are not taxed. */
export const TAX_RATES = [
  { key: 'sales', name: 'Sales tax', basisPoints: 825 },
  { key: 'rental', name: 'Equipment rental tax', basisPoints: 386 },
] as const

export type TaxKey = (typeof TAX_RATES)[number]['key']

/** Discount codes the desk takes; the summer sale is over (inactive) but was used while it ran. */
export const DISCOUNTS = [
  {
    code: 'STUDENT10',
    name: 'Student discount',
    display_name: 'Student 10%',
    association_id: null,
    percent: 1000,
    active: true,
  },
  {
    code: 'MILITARY15',
    name: 'Military discount',
    display_name: 'Military 15%',
    association_id: 2,
    percent: 1500,
    active: true,
  },
  {
    code: 'CORP12',
    name: 'Corporate partner rate',
    display_name: 'Partner rate',
    association_id: 7,
    percent: 1250,
    active: true,
  },
  {
    code: 'FRIEND5',
    name: 'Bring a friend',
    display_name: '',
    association_id: null,
    amount: 500,
    active: true,
  },
  {
    code: 'BDAY10',
    name: 'Birthday treat',
    display_name: 'Happy birthday',
    association_id: null,
    amount: 1000,
    active: true,
  },
  {
    code: 'SUMMER20',
    name: 'Summer sale',
    display_name: 'Summer sale 20%',
    association_id: null,
    percent: 2000,
    active: false,
  },
] as const

/** Voucher packs for classes, one of each per gym; `uses` vouchers of the event type, each pack. */
export const VOUCHER_PACKS = [
  {
    eventKey: 'intro',
    name: 'Intro to Bouldering 3-Pack',
    uses: 3,
    validDays: 365,
    price: 9000,
    status: 'ACT',
  },
  {
    eventKey: 'belay',
    name: 'Learn to Belay: Two Lessons',
    uses: 2,
    validDays: 180,
    price: 8000,
    status: 'ACT',
  },
  {
    eventKey: 'clinic',
    name: 'Technique Clinic 4-Pack',
    uses: 4,
    validDays: 365,
    price: 14000,
    status: 'ACT',
  },
  { eventKey: 'youth', name: 'Youth Camp Week (draft)', uses: 5, validDays: 90, price: 22500, status: 'DRA' },
] as const

/** What the desk sells over the counter: rentals, chalk and gear, food and drink, clothing. */
export const RETAIL = [
  { name: 'Shoe rental', price: 600, tax: 'rental', code: REVENUE_ACCOUNTS.rental, weight: 30, most: 1 },
  { name: 'Harness rental', price: 500, tax: 'rental', code: REVENUE_ACCOUNTS.rental, weight: 12, most: 1 },
  { name: 'Loose chalk, 8 oz', price: 900, tax: 'sales', code: REVENUE_ACCOUNTS.retail, weight: 10, most: 2 },
  { name: 'Chalk ball', price: 500, tax: 'sales', code: REVENUE_ACCOUNTS.retail, weight: 6, most: 2 },
  { name: 'Chalk bag', price: 2200, tax: 'sales', code: REVENUE_ACCOUNTS.retail, weight: 3, most: 1 },
  { name: 'Climbing tape', price: 600, tax: 'sales', code: REVENUE_ACCOUNTS.retail, weight: 5, most: 3 },
  { name: 'Energy bar', price: 350, tax: 'sales', code: REVENUE_ACCOUNTS.retail, weight: 12, most: 3 },
  { name: 'Sports drink', price: 300, tax: 'sales', code: REVENUE_ACCOUNTS.retail, weight: 10, most: 2 },
  { name: 'Cold brew', price: 450, tax: 'sales', code: REVENUE_ACCOUNTS.retail, weight: 6, most: 1 },
  {
    name: 'Granite Peak T-shirt',
    price: 2800,
    tax: 'sales',
    code: REVENUE_ACCOUNTS.retail,
    weight: 3,
    most: 2,
  },
  {
    name: 'Granite Peak hoodie',
    price: 5800,
    tax: 'sales',
    code: REVENUE_ACCOUNTS.retail,
    weight: 1.5,
    most: 1,
  },
  { name: 'Boulder brush', price: 800, tax: 'sales', code: REVENUE_ACCOUNTS.retail, weight: 2, most: 2 },
  {
    name: 'Front Range Bouldering guidebook',
    price: 3995,
    tax: 'sales',
    code: REVENUE_ACCOUNTS.retail,
    weight: 1,
    most: 1,
  },
  { name: 'Climbing shoes', price: 12900, tax: 'sales', code: REVENUE_ACCOUNTS.retail, weight: 0.8, most: 1 },
  { name: 'Lost locker key', price: 1000, tax: null, code: REVENUE_ACCOUNTS.fees, weight: 0.3, most: 1 },
] as const

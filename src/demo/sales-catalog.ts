/**
 * The terms of the demo's sales as data: revenue account codes, tax rates, discount codes, voucher
 * packs and the retail goods the desk sells over the counter. Prices are cents.
 */

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

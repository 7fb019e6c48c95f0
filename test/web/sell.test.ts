/**
 * The Sell screen in a real browser (Debian's Chromium through playwright-core, against the built
 * executable): a sale drafted and posted from the keyboard, its receipt, and the entry pass it sold
 * used at the scan box; a refused sale in the API's own words, recording nothing; and the menu of a
 * user who may not sell. One browser for the file, a fresh context for each test.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Locator, Page } from 'playwright-core'
import { removeTempDirs, stopAll, type Server } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { textContrasts } from './contrast.ts'

const ADMIN_EMAIL = 'desk@boulderfields.example'
const ADMIN_PASSWORD = 'correct-horse-battery-9'
const GYM = 'Boulderfields East'
const ORGANIZATION = 'Boulderfields Climbing'
const CLERK_EMAIL = 'clerk@boulderfields.example'
const CLERK_PASSWORD = 'staple-lantern-copper-4'
const SEARCH_LABEL = 'Name, email or barcode'

let server: Server
let browser: Browser
let token: string
let api: DeskUnderTest['api']
let staffToken: DeskUnderTest['staffToken']
/** A user who may check customers in and nothing more. */
let clerkToken: string

const newCustomer = async (first: string, last: string, barcode: string) => {
  const customer = await api(
    'POST',
    '/api/customers/',
    { first_name: first, last_name: last, birthday: '1990-05-01', barcode },
    201,
  )
  // The door lets no one in without a signed waiver.
  await api('POST', `/api/customers/${customer.id}/documents/`, { name: 'Waiver' }, 201)
  return customer.id as number
}

beforeAll(async () => {
  ;({ server, browser, token, api, staffToken } = await startDesk({
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    gym: GYM,
  }))
  await api('PUT', '/api/organization/', { name: ORGANIZATION, time_zone: 'America/Denver' }, 200)
  const salesTax = await api('POST', '/api/tax-rates/', { name: 'Sales tax', rate: '0.0825' }, 201)
  await api(
    'POST',
    '/api/entry-passes/',
    { name: 'Day Pass', status: 'ACT', number_of_entries: 1, price: '18.00' },
    201,
  )
  // Not for sale: the screen never offers it.
  await api(
    'POST',
    '/api/entry-passes/',
    { name: 'Old Punch Card', status: 'RET', number_of_entries: 10, price: '150.00' },
    201,
  )
  await api(
    'POST',
    '/api/memberships/',
    {
      name: 'Monthly Unlimited',
      status: 'ACT',
      purchase_type: 'PRE',
      price: '65.00',
      tax_rate_id: salesTax.id,
    },
    201,
  )
  const yoga = await api('POST', '/api/event-types/', { name: 'Yoga', status: 'ACT', gym_id: 1 }, 201)
  await api(
    'POST',
    '/api/voucher-packs/',
    { name: '5 Yoga Classes', status: 'ACT', event_type_id: yoga.id, number_of_uses: 5, price: '60.00' },
    201,
  )
  await newCustomer('Lynn', 'Hill', 'LH-1001')
  await newCustomer('Tommy', 'Caldwell', 'TC-3003')
  const beth = await newCustomer('Beth', 'Rodden', 'BR-4004')
  await api('POST', `/api/customers/${beth}/credits/`, { amount_total: 30, expiry_date: '2099-12-31' }, 201)
  clerkToken = await staffToken(CLERK_EMAIL, CLERK_PASSWORD, [])
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

/**
 * The desk as a tab that logged in earlier finds it (the token in the tab's session, the gym
 * remembered), on the check-in screen, where every login lands; window.print counted, not shown.
 */
async function openDesk(key = token): Promise<Page> {
  const page = await openLoggedIn({ browser, server }, key, {
    beforePage: 'window.printed = 0; window.print = () => { window.printed += 1 }',
  })
  await page.getByLabel('Scan a card or type a barcode, then Enter').waitFor()
  return page
}

/** A part of the page as lines of text on the screen. */
async function lines(page: Page, selector: string): Promise<string[]> {
  return (await page.locator(selector).innerText())
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

const focused = (page: Page) => page.locator(':focus')

/** Presses the key (Tab unless told) until `target` has the focus: a dozen presses at most. */
async function tabTo(page: Page, target: Locator, key = 'Tab') {
  const hasFocus = () => target.evaluate((element) => element === element.ownerDocument.activeElement)
  for (let i = 0; i < 12 && !(await hasFocus()); i++) await page.keyboard.press(key)
  expect(await hasFocus()).toBe(true)
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true })
const payment = (page: Page, name: 'First payment' | 'Second payment') =>
  page.getByRole('group', { name, exact: true })

/** The customer found by the search and chosen from the matches, from the keyboard. */
async function chooseCustomer(page: Page, search: string, name: string) {
  await page.locator('input[name="search"]:focus').waitFor()
  await page.keyboard.type(search)
  await page.keyboard.press('Enter')
  const match = page.locator('.matches button', { hasText: name })
  await match.waitFor()
  await tabTo(page, match)
  await page.keyboard.press('Enter')
  await page.locator('.chosen').waitFor()
}

test('an entry pass and a retail item sold from the keyboard, paid in two payments: the receipt, printed; the pass then lets the customer in at the scan box', async () => {
  const page = await openDesk()
  // From the scan box back through the header (Log out, the gym) to Sell.
  await tabTo(page, button(page, 'Sell'), 'Shift+Tab')
  await page.keyboard.press('Enter')
  await page.getByLabel(SEARCH_LABEL).waitFor()
  // Retired products are not offered; each kind under its own heading, with its price.
  expect(await page.locator('select[name="product"] option').allInnerTexts()).toEqual([
    'Monthly Unlimited, 65.00',
    'Day Pass, 18.00',
    '5 Yoga Classes, 60.00',
  ])
  expect(
    await page
      .locator('select[name="product"] optgroup')
      .evaluateAll((groups) => groups.map((g) => g.getAttribute('label'))),
  ).toEqual(['Memberships', 'Entry passes', 'Voucher packs'])

  await chooseCustomer(page, 'hill', 'Lynn Hill')
  expect(await lines(page, '.chosen')).toEqual(['Lynn Hill', 'Change customer'])
  // The product list has the focus; typing a name picks it, as in any list box.
  expect(await focused(page).getAttribute('name')).toBe('product')
  await page.keyboard.type('Day')
  await tabTo(page, button(page, 'Add'))
  await page.keyboard.press('Enter')

  await page.keyboard.press('Tab')
  await page.keyboard.type('Chalk bag')
  await page.keyboard.press('Tab')
  await page.keyboard.type('12.00')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Control+A')
  await page.keyboard.type('2')
  await page.keyboard.press('Tab')
  await page.keyboard.type('Sales')
  await tabTo(page, button(page, 'Add retail item'))
  await page.keyboard.press('Enter')
  await page.locator('.sale-lines li').nth(1).waitFor()
  expect(await lines(page, '.sale-lines')).toEqual([
    'Day Pass 18.00 each',
    'Quantity',
    'Remove',
    'Chalk bag 12.00 each, Sales tax 8.25%',
    'Quantity',
    'Remove',
  ])

  // The first payment by card; the second defaults to what the listed prices leave, in cash.
  const first = payment(page, 'First payment')
  await tabTo(page, first.getByLabel('Method'))
  expect(await first.getByLabel('Method').inputValue()).toBe('CRD')
  await page.keyboard.press('Tab')
  await page.keyboard.type('40.00')
  await tabTo(page, button(page, 'Add a second payment'))
  await page.keyboard.press('Enter')
  const second = payment(page, 'Second payment')
  await second.locator('select:focus').waitFor()
  expect(await second.getByLabel('Method').inputValue()).toBe('NA')
  expect(await second.getByLabel('Amount').inputValue()).toBe('2.00')
  await tabTo(page, button(page, 'Post the sale'))
  expect(
    (await textContrasts(page.locator('.sell :is(h2, label, legend, button, li, p, span)'))).filter(
      (t) => t.ratio < 4.5,
    ),
  ).toEqual([])
  await page.keyboard.press('Enter')

  // The receipt, with the focus, every amount as the API worked it out.
  const receipt = page.locator('.receipt')
  await receipt.waitFor()
  expect(await focused(page).innerText()).toBe(ORGANIZATION)
  const [invoice] = (await api('GET', '/api/invoices/', undefined, 200)).results
  const shown = await lines(page, '.receipt')
  expect(shown[2]).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/)
  expect(shown.toSpliced(2, 1)).toEqual([
    ORGANIZATION,
    GYM,
    `Invoice ${invoice.id}`,
    'Customer: Lynn Hill',
    'Item\tQty\tPrice\tAmount\tTax',
    'Day Pass\t1\t18.00\t18.00\t0.00',
    'Chalk bag\t2\t12.00\t24.00\t1.98',
    'Subtotal',
    '42.00',
    'Tax',
    '1.98',
    'Total',
    '43.98',
    'Paid by Card',
    '40.00',
    'Paid by Cash',
    '2.00',
    'Balance due',
    '1.98',
  ])
  expect(invoice.total).toBe('43.98')
  expect(
    (
      await textContrasts(page.locator('.receipt :is(h2, p, th, td, dt, dd), .receipt-actions button'))
    ).filter((t) => t.ratio < 4.5),
  ).toEqual([])

  await tabTo(page, button(page, 'Print'))
  await page.keyboard.press('Enter')
  expect(await page.evaluate(() => (globalThis as unknown as { printed: number }).printed)).toBe(1)
  // On paper: the receipt alone, without the menu or the buttons.
  await page.emulateMedia({ media: 'print' })
  expect(await receipt.isVisible()).toBe(true)
  expect(await page.locator('.bar').isVisible()).toBe(false)
  expect(await button(page, 'New sale').isVisible()).toBe(false)
  await page.emulateMedia({ media: 'screen' })

  // The pass sold lets Lynn in at the scan box.
  await button(page, 'Check-in').click()
  await page.locator('input[name="barcode"]:focus').waitFor()
  await page.keyboard.type('LH-1001')
  await page.keyboard.press('Enter')
  await page.locator('.card').waitFor()
  expect(await lines(page, '.card')).toEqual([
    'CHECKED IN',
    'Lynn Hill',
    'Day Pass (0 remaining)',
    'Check-in number 1',
    '1st check-in',
  ])
  expect(await page.locator('.card.ok').count()).toBe(1)
})

test("a retail sale without a customer; New sale starts again from nothing, and sells a membership from today and a voucher pack, part paid from the customer's credit", async () => {
  const page = await openDesk()
  await button(page, 'Sell').click()
  await page.getByLabel('Retail item', { exact: true }).fill('Tape')
  await page.getByLabel('Unit price').fill('4.50')
  await button(page, 'Add retail item').click()
  await payment(page, 'First payment').getByLabel('Method').selectOption({ label: 'Cash' })
  await payment(page, 'First payment').getByLabel('Amount').fill('4.50')
  await button(page, 'Post the sale').click()
  await page.locator('.receipt').waitFor()
  expect((await lines(page, '.receipt')).slice(4)).toEqual([
    'Customer: none',
    'Item\tQty\tPrice\tAmount\tTax',
    'Tape\t1\t4.50\t4.50\t0.00',
    'Subtotal',
    '4.50',
    'Tax',
    '0.00',
    'Total',
    '4.50',
    'Paid by Cash',
    '4.50',
    'Balance due',
    '0.00',
  ])

  await button(page, 'New sale').focus()
  await page.keyboard.press('Enter')
  await page.locator('input[name="search"]:focus').waitFor()
  expect(await lines(page, '.sale section:has(#sale-lines)')).toEqual([
    'In this sale',
    'Nothing yet: add a product or a retail item.',
    'Discounts and tax are worked out when the sale is posted; the receipt shows them.',
  ])
  expect(await payment(page, 'First payment').getByLabel('Amount').inputValue()).toBe('')

  await chooseCustomer(page, 'rodden', 'Beth Rodden')
  const product = page.locator('select[name="product"]')
  await product.selectOption({ label: 'Monthly Unlimited, 65.00' })
  await button(page, 'Add').click()
  await product.selectOption({ label: '5 Yoga Classes, 60.00' })
  await button(page, 'Add').click()
  // A line added by mistake, removed from the keyboard; the product list takes the focus back.
  await product.selectOption({ label: 'Day Pass, 18.00' })
  await button(page, 'Add').click()
  await button(page, 'Remove Day Pass').focus()
  await page.keyboard.press('Enter')
  await button(page, 'Remove Day Pass').waitFor({ state: 'detached' })
  expect(await page.locator('.sale-lines .item').allInnerTexts()).toEqual([
    'Monthly Unlimited 65.00 each',
    '5 Yoga Classes 60.00 each',
  ])
  expect(await focused(page).getAttribute('name')).toBe('product')
  // A membership starts today at the desk's gym unless the desk says otherwise.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Denver' }).format(new Date())
  expect(await page.getByLabel('Monthly Unlimited starts').inputValue()).toBe(today)
  // Part paid from the credit Beth holds, the rest by card.
  const first = payment(page, 'First payment')
  await first.locator('option', { hasText: 'Credit' }).waitFor({ state: 'attached' })
  expect(await first.locator('option').allInnerTexts()).toEqual([
    'Card',
    'Cash',
    'Bank transfer',
    'Credit, 30.00 left',
  ])
  await first.getByLabel('Method').selectOption({ label: 'Credit, 30.00 left' })
  await first.getByLabel('Amount').fill('30.00')
  await button(page, 'Add a second payment').click()
  const second = payment(page, 'Second payment')
  expect(await second.getByLabel('Amount').inputValue()).toBe('95.00')
  await second.getByLabel('Method').selectOption({ label: 'Card' })
  await second.getByLabel('Amount').fill('100.36')
  await button(page, 'Post the sale').click()
  await page.locator('.receipt').waitFor()
  expect((await lines(page, '.receipt')).slice(4)).toEqual([
    'Customer: Beth Rodden',
    'Item\tQty\tPrice\tAmount\tTax',
    'Monthly Unlimited\t1\t65.00\t65.00\t5.36',
    '5 Yoga Classes\t1\t60.00\t60.00\t0.00',
    'Subtotal',
    '125.00',
    'Tax',
    '5.36',
    'Total',
    '130.36',
    'Paid by Credit',
    '30.00',
    'Paid by Card',
    '100.36',
    'Balance due',
    '0.00',
  ])
  const beth = (await api('GET', '/api/customers/?barcode=BR-4004', undefined, 200)).results[0]
  const memberships = await api('GET', `/api/customer-memberships/?owner_id=${beth.id}`, undefined, 200)
  expect(
    memberships.results.map((m: { start_date: string; status: string }) => [m.start_date, m.status]),
  ).toEqual([[today, 'ACT']])
  const vouchers = await api('GET', `/api/customers/${beth.id}/event-vouchers/`, undefined, 200)
  expect(vouchers.count).toBe(1)
  const credits = await api('GET', `/api/customers/${beth.id}/credits/`, undefined, 200)
  expect(credits.results.map((c: { amount_remaining: number }) => c.amount_remaining)).toEqual([0])
})

test("a refused sale shows the API's own words at the fields they name, and records nothing", async () => {
  const page = await openDesk()
  await button(page, 'Sell').click()
  await page.locator('select[name="product"]').selectOption({ label: 'Day Pass, 18.00' })
  await button(page, 'Add').click()
  await payment(page, 'First payment').getByLabel('Amount').fill('18.00')
  await page.getByLabel('Quantity of Day Pass').fill('0')
  await page.getByLabel('Discount code (optional)').fill('NOPE')
  await button(page, 'Post the sale').click()
  await page.getByRole('alert').waitFor()
  expect(await page.getByRole('alert').innerText()).toBe('The sale was not posted; nothing was recorded.')
  expect(await lines(page, '.sale-lines .field-errors')).toEqual([
    'quantity: Ensure this value is greater than or equal to 1.',
  ])
  expect(await lines(page, 'section:has(#sale-discount) .field-errors')).toEqual([
    'No active discount has the code "NOPE".',
  ])

  // An entry pass is the customer's: it cannot be sold without one.
  await page.getByLabel('Quantity of Day Pass').fill('1')
  await page.getByLabel('Discount code (optional)').fill('')
  await button(page, 'Post the sale').click()
  await page.locator('section:has(#sale-customer) .field-errors').waitFor()
  expect(await lines(page, 'section:has(#sale-customer) .field-errors')).toEqual([
    'Choose a customer: memberships, entry passes, bookings and vouchers are sold to someone.',
  ])
  expect(await page.locator('.sell .field-errors').count()).toBe(1)

  // Paying more than the total is refused once the rest is right.
  await page.getByLabel(SEARCH_LABEL).focus()
  await chooseCustomer(page, 'caldwell', 'Tommy Caldwell')
  await payment(page, 'First payment').getByLabel('Amount').fill('20.00')
  await button(page, 'Post the sale').click()
  await page.locator('section:has(#sale-payments) .field-errors').waitFor()
  expect(await lines(page, 'section:has(#sale-payments) .field-errors')).toEqual([
    'The payments (20.00) come to more than the invoice total (18.00).',
  ])
  expect(await page.locator('.sell .field-errors').count()).toBe(1)
  expect(
    (await textContrasts(page.locator('.sell [role="alert"] p, .sell .field-errors li'))).filter(
      (t) => t.ratio < 4.5,
    ),
  ).toEqual([])

  const tommy = (await api('GET', '/api/customers/?barcode=TC-3003', undefined, 200)).results[0]
  expect((await api('GET', `/api/invoices/?customer_id=${tommy.id}`, undefined, 200)).count).toBe(0)
  expect((await api('GET', `/api/customer-entry-passes/?owner_id=${tommy.id}`, undefined, 200)).count).toBe(0)
})

test('a user who may not manage members is not offered Sell', async () => {
  const page = await openDesk(clerkToken)
  expect(await page.locator('nav[aria-label="Screens"] button').allInnerTexts()).toEqual(['Check-in'])
})

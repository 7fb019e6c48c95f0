/**
 * The Sell screen in a real browser (Debian's Chromium through playwright-core, against the built
 * executable), at the desk's 1366x768 and the tablet's 1024x768: a sale drafted and posted from the
 * keyboard, its receipt, and the entry pass it sold used at the scan box; the total as the API
 * prices it while the sale is built; a split payment with a discount posted from the amounts the
 * screen fills in; the sale kept across a switch to another screen; a quick-sale button; "Post the
 * sale" in view however long the sale; a refused sale in plain words at its fields, recording
 * nothing; and the menu of a user who may not sell. One browser for the file, a fresh context for
 * each test.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Locator, Page } from 'playwright-core'
import { removeTempDirs, stopAll, type Server } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { textContrasts } from './contrast.ts'
import { ageOn, todayIn } from '../../src/web/format.ts'

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

/** The desk's screen and the tablet's. */
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
] as const

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
  const dayPass = await api(
    'POST',
    '/api/entry-passes/',
    { name: 'Day Pass', status: 'ACT', number_of_entries: 1, price: '18.00' },
    201,
  )
  const punchCard = await api(
    'POST',
    '/api/entry-passes/',
    { name: '10-Punch Card', status: 'ACT', number_of_entries: 10, price: '89.00' },
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
  await api(
    'POST',
    '/api/discounts/',
    { code: 'SPRING10', display_name: 'Spring', percent_off: '10', amount_off: null },
    201,
  )
  await api(
    'POST',
    '/api/discounts/',
    { code: 'OLD', percent_off: '50', amount_off: null, is_active: false },
    201,
  )
  const summer = await api(
    'POST',
    '/api/entry-passes/',
    { name: 'Summer Pass', status: 'ACT', number_of_entries: 5, price: '70.00' },
    201,
  )
  await api(
    'PUT',
    '/api/organization/quick-sales/',
    {
      quick_sales: [
        { purchase_type: 'EPA', product_id: dayPass.id, label: 'Day pass' },
        { purchase_type: 'EPA', product_id: punchCard.id, label: '10 punches' },
        { purchase_type: 'EPA', product_id: summer.id, label: 'Summer' },
      ],
    },
    200,
  )
  // Retired after the admin chose its button.
  await api('PATCH', `/api/entry-passes/${summer.id}/`, { status: 'RET' }, 200)
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
async function openDesk(key = token, size: { width: number; height: number } = SIZES[0]): Promise<Page> {
  const page = await openLoggedIn({ browser, server }, key, {
    beforePage: 'window.printed = 0; window.print = () => { window.printed += 1 }',
  })
  await page.setViewportSize(size)
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

/** Reads `value` until it equals `expected` (the quote answers a moment after a change), then expects it. */
async function eventually<T>(value: () => Promise<T>, expected: T) {
  let seen = await value()
  for (let i = 0; i < 100 && !Bun.deepEquals(seen, expected); i++) {
    await Bun.sleep(100)
    seen = await value()
  }
  expect(seen as unknown).toEqual(expected)
}

const summary = (page: Page) => page.getByRole('region', { name: 'Sale total' })
const total = (page: Page) => summary(page).locator('[data-total]')

/** The element lies wholly inside the window, nothing scrolled. */
async function expectInView(page: Page, element: Locator) {
  const box = (await element.boundingBox())!
  const window = page.viewportSize()!
  expect(await page.evaluate('[scrollX, scrollY]')).toEqual([0, 0])
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(window.width)
  expect(box.y + box.height).toBeLessThanOrEqual(window.height)
}

/** Waits until the API's total is shown (the quote answered the sale as it now is). */
async function expectTotal(page: Page, expected: string) {
  await eventually(() => total(page).innerText(), expected)
}

test('an entry pass and a retail item sold from the keyboard, the total priced as they are added, paid in two payments: the receipt, printed; the pass then lets the customer in at the scan box', async () => {
  const page = await openDesk()
  // From the scan box back through the header (Log out, the gym) to Sell.
  await tabTo(page, button(page, 'Sell'), 'Shift+Tab')
  await page.keyboard.press('Enter')
  await page.getByLabel(SEARCH_LABEL).waitFor()
  // Retired products are not offered; each kind under its own heading, with its price.
  expect(await page.locator('select[name="product"] option').allInnerTexts()).toEqual([
    'Monthly Unlimited, 65.00',
    'Day Pass, 18.00',
    '10-Punch Card, 89.00',
    '5 Yoga Classes, 60.00',
  ])
  expect(
    await page
      .locator('select[name="product"] optgroup')
      .evaluateAll((groups) => groups.map((g) => g.getAttribute('label'))),
  ).toEqual(['Memberships', 'Entry passes', 'Voucher packs'])
  expect(await total(page).innerText()).toBe('0.00')

  await chooseCustomer(page, 'hill', 'Lynn Hill')
  expect(await lines(page, '.chosen')).toEqual(['Lynn Hill', 'Change customer'])
  // The product list has the focus; typing a name picks it, as in any list box.
  expect(await focused(page).getAttribute('name')).toBe('product')
  await page.keyboard.type('Day')
  await tabTo(page, button(page, 'Add'))
  await page.keyboard.press('Enter')
  await expectTotal(page, '18.00')

  await tabTo(page, page.getByLabel('Retail item', { exact: true }))
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
  // Each line and the sale as the API prices them: the chalk bags taxed at 8.25%.
  await expectTotal(page, '43.98')
  expect(await lines(page, '.sale-lines')).toEqual([
    'Day Pass 18.00 each',
    'Qty',
    '18.00',
    'Remove',
    'Chalk bag 12.00 each, Sales tax 8.25%',
    'Qty',
    '+1.98 tax 25.98',
    'Remove',
  ])
  expect(await lines(page, '.sale-totals')).toEqual([
    'Subtotal',
    '42.00',
    'Discounts',
    '0.00',
    'Tax',
    '1.98',
    'Total',
    '43.98',
  ])

  // The first payment, by card, is the total; the second takes what the first leaves, in cash.
  const first = payment(page, 'First payment')
  expect(await first.getByLabel('Method').inputValue()).toBe('CRD')
  expect(await first.getByLabel('Amount').inputValue()).toBe('43.98')
  await tabTo(page, first.getByLabel('Amount'))
  await page.keyboard.press('Control+A')
  await page.keyboard.type('40.00')
  await tabTo(page, button(page, 'Add a second payment'))
  await page.keyboard.press('Enter')
  const second = payment(page, 'Second payment')
  await second.locator('select:focus').waitFor()
  expect(await second.getByLabel('Method').inputValue()).toBe('NA')
  await eventually(() => second.getByLabel('Amount').inputValue(), '3.98')
  expect(
    (await textContrasts(page.locator('.sell :is(h2, label, legend, button, li, p, span, dt, dd)'))).filter(
      (t) => t.ratio < 4.5,
    ),
  ).toEqual([])
  await button(page, 'Post the sale').focus()
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
    '3.98',
    'Balance due',
    '0.00',
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

  // New sale starts from nothing: the sale posted is gone from the screen.
  await button(page, 'New sale').click()
  await page.getByLabel(SEARCH_LABEL).waitFor()
  expect(await page.locator('.sale-lines').count()).toBe(0)
  expect(await total(page).innerText()).toBe('0.00')

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
    'Last entry on this pass',
    'Check-in number 1',
    '1st check-in',
    // Her age, beside her photo.
    String(ageOn('1990-05-01', todayIn('America/Denver'))),
  ])
  expect(await page.locator('.card.ok').count()).toBe(1)
})

for (const size of SIZES) {
  test(`${size.width}x${size.height}: a quick sale with a discount from the list, split in two from the amounts filled in; Post the sale in view however long the sale`, async () => {
    const page = await openDesk(token, size)
    await button(page, 'Sell').click()
    await chooseCustomer(page, 'caldwell', 'Tommy Caldwell')
    // The admin's buttons; one whose product is retired is shown but cannot sell it.
    const quick = page.getByRole('navigation', { name: 'Quick sale' })
    expect(await quick.getByRole('button').allInnerTexts()).toEqual(['Day pass', '10 punches', 'Summer'])
    expect(await quick.getByRole('button', { name: 'Summer' }).isDisabled()).toBe(true)
    await quick.getByRole('button', { name: '10 punches' }).click()
    await expectTotal(page, '89.00')
    expect(await page.locator('.sale-lines .item').allInnerTexts()).toEqual(['10-Punch Card 89.00 each'])

    // The active discounts, by name, code and what they take off.
    const discount = page.locator('select[name="discount"]')
    expect(await discount.locator('option').allInnerTexts()).toEqual([
      'No discount',
      'Spring (SPRING10), 10% off',
    ])
    await discount.selectOption({ label: 'Spring (SPRING10), 10% off' })
    await expectTotal(page, '80.10')
    expect(await lines(page, '.sale-lines .line-money')).toEqual(['89.00 −8.90 80.10'])
    const first = payment(page, 'First payment')
    expect(await first.getByLabel('Amount').inputValue()).toBe('80.10')

    await first.getByLabel('Amount').fill('50.00')
    await button(page, 'Add a second payment').click()
    const second = payment(page, 'Second payment')
    expect(await second.getByLabel('Method').inputValue()).toBe('NA')
    await eventually(() => second.getByLabel('Amount').inputValue(), '30.10')
    expect(await first.getByLabel('Amount').inputValue()).toBe('50.00')

    // However many lines, the total and its button stay in the window.
    for (let i = 0; i < 6; i++) await quick.getByRole('button', { name: 'Day pass' }).click()
    await expectTotal(page, '177.30')
    await eventually(() => second.getByLabel('Amount').inputValue(), '127.30')
    // The sale is now longer than the window: the bar stays in it regardless.
    expect(await page.evaluate('document.documentElement.scrollHeight > innerHeight')).toBe(true)
    await expectInView(page, button(page, 'Post the sale'))
    await expectInView(page, total(page))
    for (let i = 0; i < 6; i++) await button(page, 'Remove Day Pass').first().click()
    // A line removed gives the focus back to the product list.
    expect(await focused(page).getAttribute('name')).toBe('product')
    await expectTotal(page, '80.10')
    await eventually(() => second.getByLabel('Amount').inputValue(), '30.10')
    await expectInView(page, button(page, 'Post the sale'))
    expect(
      (
        await textContrasts(page.locator('.sell :is(h2, label, legend, button, li, p, span, dt, dd, s)'))
      ).filter((t) => t.ratio < 4.5),
    ).toEqual([])
    if (size.width === 1024) {
      // The tablet's touch targets.
      const heights = await page
        .locator('.sell button:visible, .sell input:visible, .sell select:visible')
        .evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().height))
      expect(heights.filter((h) => h < 44)).toEqual([])
    }

    await button(page, 'Post the sale').click()
    await page.locator('.receipt').waitFor()
    expect((await lines(page, '.receipt')).slice(4)).toEqual([
      'Customer: Tommy Caldwell',
      'Item\tQty\tPrice\tDiscount\tAmount\tTax',
      '10-Punch Card\t1\t89.00\t8.90\t80.10\t0.00',
      'Subtotal',
      '89.00',
      'Discount Spring',
      '-8.90',
      'Tax',
      '0.00',
      'Total',
      '80.10',
      'Paid by Card',
      '50.00',
      'Paid by Cash',
      '30.10',
      'Balance due',
      '0.00',
    ])
  })
}

test('a day pass sold from a red card, then the customer checked in from the receipt', async () => {
  await newCustomer('Hazel', 'Findlay', 'HF-5005')
  const page = await openDesk()
  await page.keyboard.type('HF-5005')
  await page.keyboard.press('Enter')
  // No entry method: the red card offers the sale, for this customer.
  await button(page, 'Sell a day pass').click()
  expect(await lines(page, '.chosen')).toEqual(['Hazel Findlay', 'Change customer'])
  await button(page, 'Day pass').click()
  await expectTotal(page, '18.00')
  await button(page, 'Post the sale').click()
  await button(page, 'Check in Hazel').click()
  await page.locator('.card.ok').waitFor()
  expect((await lines(page, '.card')).slice(0, 4)).toEqual([
    'CHECKED IN',
    'Hazel Findlay',
    'Day Pass (0 remaining)',
    'Last entry on this pass',
  ])
  // Once in, the receipt offers no second check-in.
  expect(await button(page, 'Check in Hazel').count()).toBe(0)
})

test('a sale in progress is kept while the desk checks someone in, until Start over', async () => {
  const page = await openDesk(token, SIZES[1])
  await button(page, 'Sell').click()
  await chooseCustomer(page, 'rodden', 'Beth Rodden')
  await page.locator('select[name="product"]').selectOption({ label: 'Monthly Unlimited, 65.00' })
  await button(page, 'Add').click()
  await page.locator('select[name="discount"]').selectOption({ label: 'Spring (SPRING10), 10% off' })
  await expectTotal(page, '63.33')
  const first = payment(page, 'First payment')
  await first.locator('option', { hasText: 'Credit' }).waitFor({ state: 'attached' })
  await first.getByLabel('Method').selectOption({ label: 'Credit, 30.00 left' })
  await first.getByLabel('Amount').fill('30.00')
  await button(page, 'Add a second payment').click()
  // Beside a credit, the second payment is by card.
  expect(await payment(page, 'Second payment').getByLabel('Method').inputValue()).toBe('CRD')
  await eventually(() => payment(page, 'Second payment').getByLabel('Amount').inputValue(), '33.33')

  await button(page, 'Check-in').click()
  await page.locator('input[name="barcode"]:focus').waitFor()
  await button(page, 'Sell').click()
  await expectTotal(page, '63.33')
  expect(await lines(page, '.chosen')).toEqual(['Beth Rodden', 'Change customer'])
  expect(await page.locator('.sale-lines .item').allInnerTexts()).toEqual(['Monthly Unlimited 65.00 each'])
  expect(await page.locator('select[name="discount"]').inputValue()).toBe('SPRING10')
  expect(await payment(page, 'First payment').getByLabel('Method').inputValue()).toBe(
    (await page.locator('option', { hasText: 'Credit, 30.00 left' }).first().getAttribute('value'))!,
  )
  expect(await payment(page, 'First payment').getByLabel('Amount').inputValue()).toBe('30.00')
  expect(await payment(page, 'Second payment').getByLabel('Amount').inputValue()).toBe('33.33')

  await button(page, 'Start over').click()
  await page.getByLabel(SEARCH_LABEL).waitFor()
  expect(await page.locator('.sale-lines').count()).toBe(0)
  expect(await payment(page, 'Second payment').count()).toBe(0)
  expect(await payment(page, 'First payment').getByLabel('Amount').inputValue()).toBe('')
  expect(await total(page).innerText()).toBe('0.00')
  const beth = (await api('GET', '/api/customers/?barcode=BR-4004', undefined, 200)).results[0]
  expect((await api('GET', `/api/invoices/?customer_id=${beth.id}`, undefined, 200)).count).toBe(0)
})

test('what the API refuses shows at its field in plain words, with no field names or codes, and nothing is recorded', async () => {
  const tommy = (await api('GET', '/api/customers/?barcode=TC-3003', undefined, 200)).results[0]
  const sales = async () => (await api('GET', `/api/invoices/?customer_id=${tommy.id}`, undefined, 200)).count
  const before = await sales()
  const page = await openDesk(token, SIZES[1])
  await button(page, 'Sell').click()
  await page.getByRole('navigation', { name: 'Quick sale' }).getByRole('button', { name: 'Day pass' }).click()
  // An entry pass is the customer's: said at the customer as soon as the sale is priced.
  const customerErrors = page.locator('section:has(#sale-customer) .field-errors')
  await customerErrors.waitFor()
  expect(await lines(page, 'section:has(#sale-customer) .field-errors')).toEqual([
    'Choose a customer: memberships, entry passes, bookings and vouchers are sold to someone.',
  ])
  expect(await total(page).innerText()).toBe('—')

  await page.getByLabel('Retail item', { exact: true }).fill('Tape')
  await page.getByLabel('Unit price').fill('four')
  await button(page, 'Add retail item').click()
  await page.getByLabel('Quantity of Day Pass').fill('0')
  await eventually(
    () => page.locator('.sale-lines .field-errors').allInnerTexts(),
    ['The quantity must be at least 1.', 'The price must be an amount, such as 12.50.'],
  )

  await page.getByLabel('Quantity of Day Pass').fill('1')
  await button(page, 'Remove Tape').click()
  await page.getByLabel(SEARCH_LABEL).focus()
  await chooseCustomer(page, 'caldwell', 'Tommy Caldwell')
  await expectTotal(page, '18.00')
  expect(await page.locator('.sell .field-errors').count()).toBe(0)
  // Paying more than the total is refused at the payments.
  await payment(page, 'First payment').getByLabel('Amount').fill('20.00')
  await page.locator('section:has(#sale-payments) .field-errors').waitFor()
  expect(await lines(page, 'section:has(#sale-payments) .field-errors')).toEqual([
    'The payments (20.00) come to more than the invoice total (18.00).',
  ])
  await button(page, 'Post the sale').click()
  expect(await page.locator('.receipt').count()).toBe(0)
  expect(await page.locator('.sell .field-errors').count()).toBe(1)
  const text = await page.locator('.sell').innerText()
  for (const code of ['unit_price', 'quantity:', 'customer_id', 'EPA', 'MIN', 'Invalid pk', 'Ensure this'])
    expect(text).not.toContain(code)
  expect((await textContrasts(page.locator('.sell .field-errors li'))).filter((t) => t.ratio < 4.5)).toEqual(
    [],
  )

  expect(await sales()).toBe(before)
})

test('a user who may not manage members is not offered Sell', async () => {
  const page = await openDesk(clerkToken)
  expect(await page.locator('nav[aria-label="Screens"] button').allInnerTexts()).toEqual(['Check-in'])
})

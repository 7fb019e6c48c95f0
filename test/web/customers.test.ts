/**
 * The Customers screen in a real browser (Debian's Chromium through playwright-core, against the
 * built executable): finding a customer by part of the name and reading their page, and what the
 * desk does there: free entry, a signed waiver, an alert added and retired, and a refusal in the
 * API's words. One browser for the file, a fresh context for each test.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, request, stopAll, type Server } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { textContrasts } from './contrast.ts'
import { drawSignature } from './waiver-pad.ts'
import { ageOn, todayIn } from '../../src/web/format.ts'

const ADMIN_EMAIL = 'desk@granite.example'
const ADMIN_PASSWORD = 'correct-horse-battery-9'
const GYM = 'Granite Arch'
const SEARCH_LABEL = 'Name, email or barcode, or phone'

let server: Server
let browser: Browser
let token: string

/** Lynn's age today, as the search's badge reads it: born 1990-05-01, in the gym's zone. */
const AGE = String(ageOn('1990-05-01', todayIn('America/Denver')))
let api: DeskUnderTest['api']

const newCustomer = async (first: string, last: string, barcode: string, email?: string) =>
  (
    await api(
      'POST',
      '/api/customers/',
      { first_name: first, last_name: last, birthday: '1990-05-01', barcode, email },
      201,
    )
  ).id as number

beforeAll(async () => {
  ;({ server, browser, token, api } = await startDesk({
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    gym: GYM,
  }))

  // Everything a customer's page shows, on one customer.
  const lynn = await newCustomer('Lynn', 'Hill', 'LH-1001', 'lynn@example.com')
  await api(
    'POST',
    `/api/customers/${lynn}/documents/`,
    { name: 'Waiver', expiration_date: '2099-06-30' },
    201,
  )
  await api(
    'POST',
    `/api/customers/${lynn}/alerts/`,
    { alert_text: 'Owes for a chalk bag', color_hex: '1F6FEB' },
    201,
  )
  const monthly = await api(
    'POST',
    '/api/memberships/',
    { name: 'Monthly Unlimited', status: 'ACT', purchase_type: 'PRE' },
    201,
  )
  await api(
    'POST',
    '/api/customer-memberships/',
    { membership_id: monthly.id, owner_id: lynn, start_date: '2025-01-01' },
    201,
  )
  const punch = await api(
    'POST',
    '/api/entry-passes/',
    { name: '10 Punch Card', status: 'ACT', number_of_entries: 10 },
    201,
  )
  await api('POST', '/api/customer-entry-passes/', { entry_pass_id: punch.id, owner_id: lynn }, 201)
  await api('POST', `/api/customers/${lynn}/credits/`, { amount_total: 20, expiry_date: '2099-12-31' }, 201)
  await api('POST', `/api/gym-endpoints/barcode-check-in/LH-1001/`, {}, 200)

  // A member with guest passes, and a guest who has signed a waiver (the door's rule holds for guests).
  const plus = await api(
    'POST',
    '/api/memberships/',
    { name: 'Monthly Plus Guests', status: 'ACT', purchase_type: 'PRE', guest_passes_per_month: 2 },
    201,
  )
  const sasha = await newCustomer('Sasha', 'DiGiulian', 'SD-6006')
  await api(
    'POST',
    '/api/customer-memberships/',
    { membership_id: plus.id, owner_id: sasha, start_date: '2025-01-01' },
    201,
  )
  const chris = await newCustomer('Chris', 'Sharma', 'CS-7007')
  await api('POST', `/api/customers/${chris}/documents/`, { name: 'Waiver' }, 201)

  // Customers the actions change, one each, so no test depends on another's order.
  await newCustomer('Tommy', 'Caldwell', 'TC-3003')
  await newCustomer('Alex', 'Honnold', 'AH-2002')
  await newCustomer('Beth', 'Rodden', 'BR-4004')
  await newCustomer('Hazel', 'Findlay', 'HF-5005')
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

/**
 * The desk on the Customers screen, as a tab that logged in earlier finds it: the admin's token in
 * the tab's session, the gym remembered (logging in has its own tests in front-desk.test.ts).
 */
async function openCustomers(): Promise<Page> {
  const page = await openLoggedIn({ browser, server }, token)
  await page.getByRole('button', { name: 'Customers' }).click()
  await page.getByLabel(SEARCH_LABEL).waitFor()
  return page
}

/** The search typed and sent from the keyboard, the first match chosen with the arrow and Enter. */
async function openCustomer(page: Page, search: string, name: string) {
  await page.getByLabel(SEARCH_LABEL).fill(search)
  await page.keyboard.press('Enter')
  await page.locator('.matches button').first().waitFor()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name, exact: true, level: 2 }).waitFor()
}

/** A part of the page as lines of text on the screen. */
async function lines(page: Page, selector: string): Promise<string[]> {
  return (await page.locator(selector).innerText())
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** The text in a section of the customer's page, under its heading. */
const section = (page: Page, heading: string) => lines(page, `section:has(> h3:text-is("${heading}"))`)

test('a customer found by part of the name, from the keyboard: their identity, waiver, alerts, memberships and passes, credits and last check-in', async () => {
  const page = await openCustomers()
  // The search box has the focus on arrival.
  await page.locator('input[name="search"]:focus').waitFor()
  await page.keyboard.type('hil')
  await page.keyboard.press('Enter')
  await page.locator('.matches button').first().waitFor()
  expect(await lines(page, '.customers')).toEqual([
    SEARCH_LABEL,
    'Search',
    'Sign up a walk-in',
    '1 found.',
    'Lynn Hill',
    AGE,
    'lynn@example.com · LH-1001',
    'Member',
    'Waiver signed',
    'Check in',
  ])
  await page.keyboard.press('ArrowDown')
  expect(await lines(page, '.matches li .match:focus')).toEqual([
    'Lynn Hill',
    AGE,
    'lynn@example.com · LH-1001',
    'Member',
    'Waiver signed',
  ])
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name: 'Lynn Hill', level: 2 }).waitFor()

  expect(await lines(page, '.identity')).toEqual([
    'Email',
    'lynn@example.com',
    'Phone',
    'None',
    'Birthday',
    '1990-05-01',
    'Card',
    'LH-1001',
    'Waiver',
    'Signed, valid until 2099-06-30',
  ])
  expect(await section(page, 'Alerts')).toEqual([
    'Alerts',
    'Owes for a chalk bag',
    'Retire',
    'New alert',
    'Colour',
    'Red',
    'Amber',
    'Blue',
    'Green',
    'Grey',
    'Stops check-in',
    'Add alert',
  ])
  expect(await page.locator('.alerts li').getAttribute('style')).toBe('border-left-color: rgb(31, 111, 235);')
  expect(await section(page, 'Memberships and entry passes')).toEqual([
    'Memberships and entry passes',
    'Monthly Unlimited: Active, from 2025-01-01',
    '10 Punch Card: 10 of 10 entries left',
  ])
  expect(await section(page, 'Credits')).toEqual(['Credits', '20.00 of 20.00 left, expires Dec 31, 2099'])
  const checkIns = await page.locator('.check-ins tbody tr td').allInnerTexts()
  expect(checkIns.slice(2)).toEqual([GYM, 'Monthly Unlimited'])
  expect(checkIns[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  expect(checkIns[1]).toMatch(/^\d{2}:\d{2}$/)

  // Back to the same matches.
  await page.getByRole('button', { name: 'Back to the search' }).click()
  expect(await page.locator('.found').innerText()).toBe('1 found.')
})

test('free entry with a reason: a check-in at the desk that shows on their page', async () => {
  const page = await openCustomers()
  await openCustomer(page, 'caldw', 'Tommy Caldwell')
  expect(await section(page, 'Last check-ins')).toEqual(['Last check-ins', 'Never checked in.'])
  await page.getByLabel('Reason for free entry').fill('Route setter')
  await page.keyboard.press('Enter')
  await page.locator('.done').waitFor()
  expect(await page.locator('.done').innerText()).toBe(`Tommy Caldwell let in free at ${GYM}.`)
  await page.locator('.check-ins').waitFor()
  const row = await page.locator('.check-ins tbody tr td').allInnerTexts()
  expect(row.slice(2)).toEqual([GYM, 'Free entry: Route setter'])
  expect(await page.getByLabel('Reason for free entry').inputValue()).toBe('')
  const stored = await api('GET', '/api/check-ins/?entry_method=FRE', undefined, 200)
  expect(stored.results.map((c: { free_entry_reason: string }) => c.free_entry_reason)).toEqual([
    'Route setter',
  ])
})

test("a refused action shows the API's own words, and nothing changes", async () => {
  const page = await openCustomers()
  await openCustomer(page, 'findlay', 'Hazel Findlay')
  await page.getByRole('button', { name: 'Let in free' }).click()
  await page.getByRole('alert').waitFor()
  expect(await page.getByRole('alert').innerText()).toBe('Reason: This field may not be blank.')
  expect(await section(page, 'Last check-ins')).toEqual(['Last check-ins', 'Never checked in.'])
})

test("a guest checked in on a member's guest pass, the member found by their card; a member without guest passes refused", async () => {
  const page = await openCustomers()
  await openCustomer(page, 'sharma', 'Chris Sharma')
  const hostBarcode = page.getByLabel('Guest of the member with the barcode')
  await hostBarcode.fill('LH-1001')
  await page.keyboard.press('Enter')
  await page.getByRole('alert').waitFor()
  expect(await page.getByRole('alert').innerText()).toBe(
    'Host member: This customer has no active membership with guest passes.',
  )
  expect(await section(page, 'Last check-ins')).toEqual(['Last check-ins', 'Never checked in.'])

  await hostBarcode.fill('SD-6006')
  await page.keyboard.press('Enter')
  await page.locator('.check-ins').waitFor()
  expect(await page.locator('.done').innerText()).toBe(
    `Chris Sharma checked in as Sasha DiGiulian's guest at ${GYM}.`,
  )
  expect((await page.locator('.check-ins tbody tr td').allInnerTexts()).slice(2)).toEqual([
    GYM,
    'Guest of Sasha DiGiulian',
  ])
  expect(await hostBarcode.inputValue()).toBe('')
})

test('a waiver signed from their page: the waiver screen starts filled in, and the page then says signed', async () => {
  await api('POST', '/api/waiver-texts/', { text: 'I climb at my own risk.', valid_for_days: 365 }, 201)
  const page = await openCustomers()
  await openCustomer(page, 'honnold', 'Alex Honnold')
  const waiver = page.locator('.identity dd.waiver')
  expect(await waiver.innerText()).toBe('No waiver')
  expect(await waiver.getAttribute('class')).toBe('waiver missing')
  // Nothing on the page records a waiver by itself: it opens the screen the customer signs on.
  await page.getByRole('button', { name: 'Sign waiver' }).click()
  await page.getByLabel('First name').waitFor()
  expect(await page.getByLabel('First name').inputValue()).toBe('Alex')
  expect(await page.getByLabel('Last name').inputValue()).toBe('Honnold')
  if ((await page.getByLabel('Phone').inputValue()) === '') await page.getByLabel('Phone').fill('555-0199')
  await drawSignature(page)
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Sign', exact: true }).click()
  await page.getByRole('heading', { name: 'Thank you!' }).waitFor()
  await page.getByRole('button', { name: 'Open customer' }).click()
  await page.locator('.identity dd.waiver:not(.missing)').waitFor()
  expect(await waiver.innerText()).toMatch(/^Signed, valid until \d{4}-\d{2}-\d{2}$/)
})

test('an alert added in its colour, stopping check-in, then retired', async () => {
  const page = await openCustomers()
  await openCustomer(page, 'rodden', 'Beth Rodden')
  expect(await page.locator('.customer .alerts').count()).toBe(0)
  await page.getByLabel('New alert').fill('Belay test due')
  await page.getByLabel('Colour').selectOption({ label: 'Amber' })
  await page.getByLabel('Stops check-in').check()
  await page.getByRole('button', { name: 'Add alert' }).click()
  const alert = page.locator('.customer .alerts li')
  await alert.waitFor()
  expect(await lines(page, '.customer .alerts')).toEqual(['Belay test due (stops check-in)', 'Retire'])
  expect(await alert.getAttribute('style')).toBe('border-left-color: rgb(255, 176, 0);')
  expect(await page.locator('.done').innerText()).toBe('Alert added.')
  // The door now holds Beth back on it.
  const door = await request(server.base, 'POST', '/api/gym-endpoints/barcode-check-in/BR-4004/', {
    token,
    json: {},
  })
  expect(door.body.error).toBe('check_in_alerts')
  expect(door.body.alerts).toContain('Belay test due')

  await page.getByRole('button', { name: 'Retire alert: Belay test due' }).focus()
  await page.keyboard.press('Enter')
  await alert.waitFor({ state: 'detached' })
  expect(await page.locator('.done').innerText()).toBe('Alert retired: Belay test due')
  expect(await section(page, 'Alerts')).toContain('No alerts.')
  const kept = await api('GET', `/api/customers/${door.body.customer_id}/alerts/`, undefined, 200)
  expect(kept.results.map((a: { is_active: boolean }) => a.is_active)).toEqual([false])
})

test('a walk-in signed up, refused first without a birthday, signs the waiver on the tablet, then is let in from their page', async () => {
  await api('POST', '/api/waiver-texts/', { text: 'I climb at my own risk.', valid_for_days: null }, 201)
  const page = await openCustomers()
  await page.getByRole('button', { name: 'Sign up a walk-in' }).click()
  // The first field has the focus; the form is filled from the keyboard.
  await page.locator('input[name="first_name"]:focus').waitFor()
  await page.keyboard.type('Ashima')
  await page.keyboard.press('Tab')
  await page.keyboard.type('Shiraishi')
  await page.getByLabel('Card barcode (optional)').fill('AS-8008')
  // Nothing records a waiver for the customer: there is no box to tick.
  expect(await page.locator('.walk-in input[type="checkbox"]').count()).toBe(0)
  await page.getByRole('button', { name: 'Sign up', exact: true }).click()
  await page.getByRole('alert').waitFor()
  expect(await page.getByRole('alert').innerText()).toBe('Birthday: This field is required.')

  await page.getByLabel('Birthday').fill('2001-04-03')
  await page.getByRole('button', { name: 'Sign up', exact: true }).click()
  await page.getByRole('heading', { name: 'Ashima Shiraishi is signed up' }).waitFor()
  await page.getByRole('button', { name: 'Sign waiver now' }).click()
  // The waiver screen starts with the new customer's details.
  await page.getByLabel('First name').waitFor()
  expect(await page.getByLabel('First name').inputValue()).toBe('Ashima')
  expect(await page.getByLabel('Birthday').inputValue()).toBe('2001-04-03')
  await page.getByLabel('Phone').fill('555-0123')
  await drawSignature(page)
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Sign', exact: true }).click()
  await page.getByRole('heading', { name: 'Thank you!' }).waitFor()
  expect(await page.locator('.thanks').innerText()).toContain('Existing customer: Ashima Shiraishi.')
  await page.getByRole('button', { name: 'Open customer' }).click()

  await page.getByRole('heading', { name: 'Ashima Shiraishi', level: 2 }).waitFor()
  expect(await lines(page, '.identity')).toEqual([
    'Email',
    'None',
    'Phone',
    '555-0123',
    'Birthday',
    '2001-04-03',
    'Card',
    'AS-8008',
    'Waiver',
    'Signed, never expires',
  ])
  await page.getByLabel('Reason for free entry').fill('Walk-in taster')
  await page.keyboard.press('Enter')
  await page.locator('.check-ins').waitFor()
  expect((await page.locator('.check-ins tbody tr td').allInnerTexts()).slice(2)).toEqual([
    GYM,
    'Free entry: Walk-in taster',
  ])
  const found = await api('GET', '/api/customers/?barcode=AS-8008', undefined, 200)
  expect(found.count).toBe(1)
})

test("every text on a customer's page meets WCAG AA contrast (4.5:1)", async () => {
  const page = await openCustomers()
  await openCustomer(page, 'lynn', 'Lynn Hill')
  const texts = page.locator('.customer :is(h2, h3, dt, dd, li, label, button, td, th, p)')
  const ratios = await textContrasts(texts)
  expect(ratios.length).toBeGreaterThan(20)
  expect(ratios.filter((t) => t.ratio < 4.5)).toEqual([])
})

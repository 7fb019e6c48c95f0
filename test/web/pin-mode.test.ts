/**
 * PIN mode in a real browser: a desk logged in as a shared pin_mode_required account lets customers
 * in free; the PIN prompt lists the staff who have a PIN, the acting member picks their name (a
 * click, or typing and Enter) and types only their PIN; a wrong PIN is asked again with the pick
 * kept, Esc cancels, the last one to act stays picked for the next change, the email is asked only
 * when the list cannot be read, and each check-in records the member who acted.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Locator, Page, Route } from 'playwright-core'
import { removeTempDirs, stopAll, type Server } from '../e2e/helpers.ts'
import { newTab, startDesk, type DeskUnderTest } from './browser.ts'

const GYM = 'Boulder Barn'
const DESK = 'counter@boulderbarn.example'
const DESK_PASSWORD = 'shared-counter-77'
const ANA = 'ana@boulderbarn.example'
const ANA_PIN = '2468'
const BEN = 'ben@boulderbarn.example'
const BEN_PIN = '1357'
const SEARCH_LABEL = 'Name, email or barcode'

let server: Server
let browser: Browser
let api: DeskUnderTest['api']
let anaId: number
let benId: number

const NO_FLAGS = {
  can_manage_events: false,
  can_manage_customer_proficiencies: false,
  can_export_customers: false,
  can_access_reports: false,
  is_organization_admin: false,
}

beforeAll(async () => {
  ;({ server, browser, api } = await startDesk({
    email: 'owner@boulderbarn.example',
    password: 'owner-password-1',
    gym: GYM,
  }))
  await api(
    'POST',
    '/api/users/',
    {
      email: DESK,
      password: DESK_PASSWORD,
      default_gym_id: 1,
      is_active: true,
      ...NO_FLAGS,
      can_manage_members: true,
      pin_mode_required: true,
    },
    201,
  )
  const staff = async (email: string, first_name: string, last_name: string, more: object) =>
    (
      await api(
        'POST',
        '/api/users/',
        {
          email,
          first_name,
          last_name,
          default_gym_id: 1,
          is_active: true,
          ...NO_FLAGS,
          can_manage_members: false,
          ...more,
        },
        201,
      )
    ).id as number
  anaId = await staff(ANA, 'Ana', 'Lopez', { pin: ANA_PIN, can_manage_members: true })
  benId = await staff(BEN, 'Ben', 'Ng', { pin: BEN_PIN, can_manage_members: true })
  // Enough names for the list to look like an evening's staff; two of one name show their emails.
  await staff('alex@boulderbarn.example', 'Alex', 'Honnold', { pin: '9753' })
  await staff('janja@boulderbarn.example', 'Janja', 'Garnbret', { pin: '8642' })
  await staff('sam.lee@boulderbarn.example', 'Sam', 'Lee', { pin: '1111' })
  await staff('sam.l@boulderbarn.example', 'Sam', 'Lee', { pin: '2222' })
  await staff('shauna@boulderbarn.example', 'Shauna', 'Coxsey', { pin: '3333' })
  // Not offered: no PIN, or inactive.
  await staff('nopin@boulderbarn.example', 'Nora', 'Nopin', {})
  await staff('gone@boulderbarn.example', 'Ivan', 'Gone', { pin: '4444', is_active: false })
  await api(
    'POST',
    '/api/customers/',
    { first_name: 'Tommy', last_name: 'Caldwell', birthday: '1978-08-11', barcode: 'TC-1' },
    201,
  )
  await api(
    'POST',
    '/api/customers/',
    { first_name: 'Lynn', last_name: 'Hill', birthday: '1961-01-03', barcode: 'LH-1' },
    201,
  )
  await api(
    'POST',
    '/api/customers/',
    { first_name: 'Alex', last_name: 'Puccio', birthday: '1989-08-10', barcode: 'AP-1' },
    201,
  )
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

/** The desk in PIN mode, logged in on a fresh tab of `width` x 768 (the PIN-holder list faked when given). */
async function desk(width: number, pinHolders?: (route: Route) => Promise<void>): Promise<Page> {
  const page = await newTab(browser)
  await page.setViewportSize({ width, height: 768 })
  if (pinHolders) await page.route('**/api/users/pin-holders/', pinHolders)
  await page.goto(`${server.base}/`)
  await page.getByLabel('Email').fill(DESK)
  await page.getByLabel('Password').fill(DESK_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.locator('.pin-mode', { hasText: 'PIN mode' }).waitFor()
  expect(await page.locator('.who').textContent()).toBe(DESK)
  return page
}

async function openCustomer(page: Page, search: string, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Customers' }).click()
  await page.getByLabel(SEARCH_LABEL).fill(search)
  await page.keyboard.press('Enter')
  await page.locator('.matches button').first().waitFor()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name, exact: true, level: 2 }).waitFor()
}

/** Lets the open customer in free for `reason`: the PIN prompt opens. */
async function freeEntry(page: Page, reason: string) {
  await page.getByLabel('Reason for free entry').fill(reason)
  await page.keyboard.press('Enter')
  const prompt = page.getByRole('dialog', { name: 'Who is making this change?' })
  await prompt.waitFor()
  return prompt
}

/** The free entries given, each with who gave it. */
async function freeEntries() {
  const stored = await api('GET', '/api/check-ins/?entry_method=FRE', undefined, 200)
  return stored.results.map((c: any) => [c.free_entry_reason, c.free_entry_granting_user_id])
}

const pressed = (prompt: Locator) => prompt.locator('.pin-staff button[aria-pressed="true"]').allInnerTexts()

test('the acting member picks their name and types their PIN; a wrong one is asked again with the pick kept', async () => {
  const page = await desk(1366)
  await openCustomer(page, 'caldw', 'Tommy Caldwell')
  const prompt = await freeEntry(page, 'Route setter')
  // The staff with a PIN, by name (two of one name with their emails, first made first); the
  // filter has the focus.
  await page.locator('input[name="staff-filter"]:focus').waitFor()
  expect(await prompt.locator('.pin-staff button').allInnerTexts()).toEqual([
    'Alex Honnold',
    'Ana Lopez',
    'Ben Ng',
    'Janja Garnbret',
    'Sam Lee\nsam.lee@boulderbarn.example',
    'Sam Lee\nsam.l@boulderbarn.example',
    'Shauna Coxsey',
  ])
  await page.screenshot({ path: '/tmp/pin-prompt-1366.png' })
  await prompt.getByRole('button', { name: 'Ana Lopez' }).click()
  await page.locator('input[name="staff-pin"]:focus').waitFor()
  await page.keyboard.type('1111')
  await page.keyboard.press('Enter')
  await prompt.getByRole('alert').waitFor()
  expect(await prompt.getByRole('alert').innerText()).toBe('Wrong staff email or PIN.')
  // Ana stays picked; the PIN box has the focus again.
  expect(await pressed(prompt)).toEqual(['Ana Lopez'])
  await page.locator('input[name="staff-pin"]:focus').waitFor()
  await page.screenshot({ path: '/tmp/pin-prompt-wrong-1366.png' })
  await page.keyboard.type(ANA_PIN)
  await page.keyboard.press('Enter')
  await page.locator('.done').waitFor()
  expect(await prompt.count()).toBe(0)
  expect(await freeEntries()).toContainEqual(['Route setter', anaId])

  // The next change: Ana is still picked, the PIN box has the focus. Ben types his name there
  // (a letter goes to the filter), Enter picks him, and his PIN makes the change his.
  await openCustomer(page, 'hill', 'Lynn Hill')
  await freeEntry(page, 'Guest setter')
  expect(await pressed(prompt)).toEqual(['Ana Lopez'])
  await page.locator('input[name="staff-pin"]:focus').waitFor()
  await page.keyboard.type('ben')
  await page.locator('input[name="staff-filter"]:focus').waitFor()
  expect(await prompt.locator('.pin-staff button').allInnerTexts()).toEqual(['Ben Ng'])
  await page.keyboard.press('Enter')
  await page.locator('input[name="staff-pin"]:focus').waitFor()
  expect(await pressed(prompt)).toEqual(['Ben Ng'])
  await page.keyboard.type(BEN_PIN)
  await page.keyboard.press('Enter')
  await page.locator('.done').waitFor()
  expect(await freeEntries()).toContainEqual(['Guest setter', benId])
})

test('Esc cancels on the tablet: nothing is sent, and the page says so', async () => {
  const page = await desk(1024)
  await openCustomer(page, 'caldw', 'Tommy Caldwell')
  const prompt = await freeEntry(page, 'Birthday')
  // Arrows walk the names from the filter box.
  await page.locator('input[name="staff-filter"]:focus').waitFor()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowRight')
  expect(await prompt.locator('.pin-staff button:focus').innerText()).toBe('Ana Lopez')
  await page.screenshot({ path: '/tmp/pin-prompt-1024.png' })
  // The names are one Tab stop: Tab goes on to the PIN box.
  await page.keyboard.press('Tab')
  await page.locator('input[name="staff-pin"]:focus').waitFor()
  await page.keyboard.press('Escape')
  await page.getByRole('alert').waitFor()
  expect(await page.getByRole('alert').innerText()).toBe('Nothing was done: no staff PIN was given.')
  expect(await prompt.count()).toBe(0)
  expect((await freeEntries()).map(([reason]: [string]) => reason)).not.toContain('Birthday')
})

test('when the staff list cannot be read, the prompt asks the email instead', async () => {
  const page = await desk(1366, (route) => route.fulfill({ status: 503, body: '' }))
  await openCustomer(page, 'pucc', 'Alex Puccio')
  const prompt = await freeEntry(page, 'Fallback')
  await prompt.getByText('The staff list could not be loaded: type your email.').waitFor()
  await page.locator('input[name="staff-email"]:focus').waitFor()
  await page.keyboard.type(ANA)
  await page.keyboard.press('Tab')
  await page.keyboard.type(ANA_PIN)
  await page.keyboard.press('Enter')
  await page.locator('.done').waitFor()
  expect(await freeEntries()).toContainEqual(['Fallback', anaId])
})

/**
 * PIN mode in a real browser: a desk logged in as a shared pin_mode_required account lets a
 * customer in free; the PIN prompt asks who is acting, a wrong PIN is asked again, Esc cancels, and
 * the check-in records the acting staff member.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, stopAll, type Server } from '../e2e/helpers.ts'
import { newTab, startDesk, type DeskUnderTest } from './browser.ts'

const GYM = 'Boulder Barn'
const DESK = 'counter@boulderbarn.example'
const DESK_PASSWORD = 'shared-counter-77'
const ANA = 'ana@boulderbarn.example'
const ANA_PIN = '2468'
const SEARCH_LABEL = 'Name, email or barcode'

let server: Server
let browser: Browser
let api: DeskUnderTest['api']
let anaId: number

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
  const ana = await api(
    'POST',
    '/api/users/',
    {
      email: ANA,
      first_name: 'Ana',
      last_name: 'Lopez',
      pin: ANA_PIN,
      default_gym_id: 1,
      is_active: true,
      ...NO_FLAGS,
      can_manage_members: true,
    },
    201,
  )
  anaId = ana.id
  await api(
    'POST',
    '/api/customers/',
    { first_name: 'Tommy', last_name: 'Caldwell', birthday: '1978-08-11', barcode: 'TC-1' },
    201,
  )
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

async function deskAtCustomer(): Promise<Page> {
  const page = await newTab(browser)
  await page.goto(`${server.base}/`)
  await page.getByLabel('Email').fill(DESK)
  await page.getByLabel('Password').fill(DESK_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.locator('.pin-mode', { hasText: 'PIN mode' }).waitFor()
  expect(await page.locator('.who').textContent()).toBe(DESK)
  await page.getByRole('button', { name: 'Customers' }).click()
  await page.getByLabel(SEARCH_LABEL).fill('caldw')
  await page.keyboard.press('Enter')
  await page.locator('.matches button').first().waitFor()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name: 'Tommy Caldwell', exact: true, level: 2 }).waitFor()
  return page
}

test('a free entry in PIN mode asks the PIN, asks again after a wrong one, and records the acting member', async () => {
  const page = await deskAtCustomer()
  await page.getByLabel('Reason for free entry').fill('Route setter')
  await page.keyboard.press('Enter')
  const prompt = page.getByRole('dialog', { name: 'Who is making this change?' })
  await prompt.waitFor()
  // The email box has the focus; Tab to the PIN, Enter confirms.
  await page.locator('input[name="staff-email"]:focus').waitFor()
  await page.keyboard.type(ANA)
  await page.keyboard.press('Tab')
  await page.keyboard.type('1111')
  await page.keyboard.press('Enter')
  await prompt.getByRole('alert').waitFor()
  expect(await prompt.getByRole('alert').innerText()).toBe('Wrong staff email or PIN.')
  // The email stays; the PIN box has the focus.
  await page.locator('input[name="staff-pin"]:focus').waitFor()
  await page.keyboard.type(ANA_PIN)
  await page.keyboard.press('Enter')
  await page.locator('.done').waitFor()
  expect(await prompt.count()).toBe(0)
  const stored = await api('GET', '/api/check-ins/?entry_method=FRE', undefined, 200)
  expect(
    stored.results.map((c: any) => [
      c.free_entry_reason,
      c.free_entry_granting_user_id,
      c.free_entry_granting_user_first_name,
    ]),
  ).toEqual([['Route setter', anaId, 'Ana']])
  await page.screenshot({ path: '/tmp/pin-prompt-after.png' })
})

test('Esc cancels: nothing is sent, and the page says so', async () => {
  const page = await deskAtCustomer()
  await page.setViewportSize({ width: 1024, height: 768 })
  await page.getByLabel('Reason for free entry').fill('Birthday')
  await page.keyboard.press('Enter')
  const prompt = page.getByRole('dialog', { name: 'Who is making this change?' })
  await prompt.waitFor()
  await page.screenshot({ path: '/tmp/pin-prompt-tablet.png' })
  await page.keyboard.press('Escape')
  await page.getByRole('alert').waitFor()
  expect(await page.getByRole('alert').innerText()).toBe('Nothing was done: no staff PIN was given.')
  const stored = await api('GET', '/api/check-ins/?entry_method=FRE', undefined, 200)
  expect(stored.results.map((c: any) => c.free_entry_reason)).not.toContain('Birthday')
})

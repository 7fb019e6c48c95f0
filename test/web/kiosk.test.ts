/**
 * The self check-in kiosk in a real browser at the tablet's size (1024x768): started from the
 * menu, it admits a member by scan (green), refuses one (red, with the reason), admits one by phone
 * number and PIN on the keypad, stays a kiosk over a reload, refuses the staff API from inside the
 * page's own session, its staff login goes back to the card after a minute untouched (on the tab's
 * fake clock), and a staff login takes it back to the desk. Screenshots at both sizes go to
 * /tmp/belay-kiosk-shots for a person to look at.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, stopAll, type Server } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'

const SHOTS = '/tmp/belay-kiosk-shots'
const DAY_MS = 86_400_000
const STAFF = 'front@kiosk.example'
const STAFF_PASSWORD = 'front-desk-password-1'

let server: Server
let browser: Browser
let api: DeskUnderTest['api']
let staffToken: string
let page: Page

async function customer(first: string, barcode: string, telephone: string, membershipId: number | null) {
  const c = await api(
    'POST',
    '/api/customers/',
    { first_name: first, last_name: 'Hill', birthday: '1990-05-01', barcode, telephone },
    201,
  )
  await api('POST', `/api/customers/${c.id}/documents/`, { name: 'Waiver' }, 201)
  if (membershipId !== null) {
    const lastYear = new Date(Date.now() - 365 * DAY_MS).toISOString().slice(0, 10)
    await api(
      'POST',
      '/api/customer-memberships/',
      { membership_id: membershipId, owner_id: c.id, start_date: lastYear },
      201,
    )
  }
  return c.id as number
}

beforeAll(async () => {
  const desk = await startDesk({
    email: 'owner@kiosk.example',
    password: 'owner-password-1',
    gym: 'Kiosk Crag',
  })
  ;({ server, browser, api } = desk)
  staffToken = await desk.staffToken(STAFF, STAFF_PASSWORD, ['can_manage_members'])
  const monthly = await api(
    'POST',
    '/api/memberships/',
    { name: 'Monthly Unlimited', status: 'ACT', purchase_type: 'PRE' },
    201,
  )
  await customer('Lynn', 'LH-1', '303-555-0182', monthly.id)
  await customer('Tom', 'TF-1', '', null)
  const mia = await customer('Mia', 'MH-1', '(720) 555-0101', monthly.id)
  await customer('Sam', 'SH-1', '720.555.0101', monthly.id)
  await api('PUT', `/api/customers/${mia}/kiosk-pin/`, { pin: '2468' }, 200)
  mkdirSync(SHOTS, { recursive: true })
  // The clock flows as the real one until a test moves it on.
  page = await openLoggedIn({ browser, server }, staffToken, { fakeClock: true })
  await page.setViewportSize({ width: 1024, height: 768 })
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

const shoot = async (name: string) => {
  for (const [width, height] of [
    [1024, 768],
    [1366, 768],
  ] as const) {
    await page.setViewportSize({ width, height })
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` })
  }
  await page.setViewportSize({ width: 1024, height: 768 })
}

const answer = () => page.getByRole('status')

test('the menu starts the kiosk after a confirmation; the page is the kiosk alone', async () => {
  await page.getByRole('button', { name: 'Kiosk', exact: true }).click()
  await page.getByRole('button', { name: 'Start the kiosk on this screen' }).click()
  await page.getByRole('heading', { name: 'Scan your card' }).waitFor()
  expect(await page.getByRole('navigation', { name: 'Screens' }).count()).toBe(0)
  expect(
    await page.getByLabel('Card').evaluate((box) => box === (box as any).ownerDocument.activeElement),
  ).toBe(true)
  await shoot('scan')
})

test('a scan admits a member in green, with the first name only', async () => {
  await page.keyboard.type('LH-1')
  await page.keyboard.press('Enter')
  await expect(answer().textContent()).resolves.toBe('Welcome, Lynn!')
  expect(await answer().getAttribute('class')).toContain('kiosk-green')
  await shoot('green')
  // It clears by itself, back to the scan box.
  await answer().waitFor({ state: 'detached', timeout: 8000 })
  await page.getByRole('heading', { name: 'Scan your card' }).waitFor()
})

test('a refusal is red with the reason in words', async () => {
  await page.keyboard.type('TF-1')
  await page.keyboard.press('Enter')
  await answer().waitFor()
  expect(await answer().getAttribute('class')).toContain('kiosk-red')
  expect(await answer().locator('p').allTextContents()).toEqual([
    'Please see the front desk, Tom',
    'No membership, entry pass or event booking.',
  ])
  await shoot('red')
  await answer().click()
})

test('no card: phone number and PIN on the big keypad', async () => {
  await page.getByRole('button', { name: 'No card? Use your phone number' }).click()
  const key = page.getByRole('button', { name: '7', exact: true })
  const box = (await key.boundingBox())!
  expect(box.height).toBeGreaterThanOrEqual(64)
  for (const digit of '7205550101') await page.getByRole('button', { name: digit, exact: true }).click()
  await shoot('keypad')
  await page.getByRole('button', { name: 'Next' }).click()
  for (const digit of '2468') await page.getByRole('button', { name: digit, exact: true }).click()
  await page.getByRole('button', { name: 'Check in' }).click()
  await expect(answer().textContent()).resolves.toBe('Welcome, Mia!')
  await answer().click()
})

test('a reload stays the kiosk, and its session cannot use the staff API', async () => {
  await page.reload()
  await page.getByRole('heading', { name: 'Scan your card' }).waitFor()
  const refused = await page.evaluate(async () => {
    const res = await fetch('/api/customers/', { credentials: 'same-origin' })
    return { status: res.status, body: await res.json() }
  })
  expect(refused).toEqual({
    status: 403,
    body: { detail: 'This screen is a self check-in kiosk: a staff member must log in to use the desk.' },
  })
})

test('the staff login left a minute without a key press or tap goes back to the card', async () => {
  const staffLogin = page.getByRole('form', { name: 'Staff login' })
  await page.getByRole('button', { name: 'Staff' }).click()
  await staffLogin.waitFor()
  await page.clock.fastForward(50_000)
  // A key press at 50 s starts the minute again.
  await page.keyboard.press('a')
  await page.clock.fastForward(59_000)
  expect(await staffLogin.isVisible()).toBe(true)
  expect(await page.getByLabel('Email').inputValue()).toBe('a')
  await page.clock.fastForward(1_000)
  await staffLogin.waitFor({ state: 'detached' })
  await page.getByRole('heading', { name: 'Scan your card' }).waitFor()
  expect(
    await page.getByLabel('Card').evaluate((box) => box === (box as any).ownerDocument.activeElement),
  ).toBe(true)
})

test('a staff login from the corner returns the desk', async () => {
  await page.getByRole('button', { name: 'Staff' }).click()
  await page.getByLabel('Email').fill(STAFF)
  await page.getByLabel('Password').fill('wrong password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByRole('alert').waitFor()
  await shoot('staff-login')
  await page.getByLabel('Password').fill(STAFF_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByRole('navigation', { name: 'Screens' }).waitFor()
  const allowed = await page.evaluate(async () => (await fetch('/api/customers/')).status)
  expect(allowed).toBe(200)
})

/**
 * The browsable API in a real browser (Debian's Chromium through playwright-core, against the built
 * executable): logging in on the page, following links from the API root to a customer and their
 * alerts, filtering a list with the form, creating and patching an alert with the JSON editor on
 * the session, and a 400's body shown in the page; all under the page's policy, with nothing
 * refused and no value run as markup. Screenshots at 1366x768 go to /tmp/browsable-*.png.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, stopAll, type Server } from '../e2e/helpers.ts'
import { newTab, startDesk, type DeskUnderTest } from './browser.ts'

const ADMIN_EMAIL = 'manager@granite.example'
const ADMIN_PASSWORD = 'correct-horse-battery-9'

let server: Server
let browser: Browser
let api: DeskUnderTest['api']
let lynn: number

beforeAll(async () => {
  ;({ server, browser, api } = await startDesk({
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    gym: 'Granite Arch',
  }))
  for (const [first, last] of [
    ['Alex', 'Honnold'],
    ['<script>alert(1)</script>', 'Tables'],
  ])
    await api('POST', '/api/customers/', { first_name: first, last_name: last, birthday: '1985-08-17' }, 201)
  lynn = (
    await api(
      'POST',
      '/api/customers/',
      { first_name: 'Lynn', last_name: 'Hill', birthday: '1961-01-03' },
      201,
    )
  ).id
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

/** A tab at 1366x768 that records console errors, anything the page's policy refuses, and dialogs. */
async function browserTab(): Promise<{ page: Page; reported: string[] }> {
  const page = await newTab(browser)
  await page.setViewportSize({ width: 1366, height: 768 })
  const reported: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || /content security policy/i.test(message.text()))
      reported.push(message.text())
  })
  page.on('pageerror', (error) => reported.push(String(error)))
  page.on('dialog', (dialog) => {
    reported.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  return { page, reported }
}

const answer = (page: Page) => page.locator('#answer')
/** The link the page made of one of the box's own URLs. */
const urlLink = (page: Page, url: string) => page.locator('#answer a', { hasText: JSON.stringify(url) })

test('log in on the page, follow links to a customer and their alerts, filter, create, patch, and a 400', async () => {
  const { page, reported } = await browserTab()
  const base = server.base

  // Logged out, the root is there with a log-in form; a collection is a 401 page.
  const refused = await page.goto(`${base}/api/customers/`)
  expect(refused?.status()).toBe(401)
  expect(refused?.headers()['content-type']).toBe('text/html; charset=utf-8')
  await expect(answer(page).innerText()).resolves.toContain('"Authentication credentials were not provided."')
  await page.screenshot({ path: '/tmp/browsable-401.png' })

  await page.goto(`${base}/api/`)
  await page.locator('summary', { hasText: 'Log in' }).click()
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill('not the password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.locator('#login-error', { hasText: 'Unable to log in with provided credentials.' }).waitFor()
  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.locator('.user', { hasText: ADMIN_EMAIL }).waitFor()
  await expect(page.locator('h1').innerText()).resolves.toBe('List every collection')
  await page.screenshot({ path: '/tmp/browsable-root.png' })

  // The root's link to the customers.
  await urlLink(page, `${base}/api/customers/`).click()
  await page.waitForURL(`${base}/api/customers/`)
  await expect(page.locator('h1').innerText()).resolves.toBe('List customers')
  await expect(answer(page).innerText()).resolves.toContain('"count": 3')
  // A name that is markup shows as text, and runs nothing (no dialog above).
  await expect(answer(page).innerText()).resolves.toContain('"first_name": "<script>alert(1)</script>"')
  await page.screenshot({ path: '/tmp/browsable-customers.png' })

  // The filter form: only Lynn, and the URL says so.
  await page.locator('#filters input[name="search"]').fill('hill')
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.waitForURL(`${base}/api/customers/?search=hill`)
  await expect(answer(page).innerText()).resolves.toContain('"count": 1')
  await expect(page.locator('#filters input[name="search"]').inputValue()).resolves.toBe('hill')

  // Lynn, then her alerts, by their links.
  await urlLink(page, `${base}/api/customers/${lynn}/`).click()
  await page.waitForURL(`${base}/api/customers/${lynn}/`)
  await expect(page.locator('h1').innerText()).resolves.toBe('Read a customer')
  await page.screenshot({ path: '/tmp/browsable-customer.png' })
  await urlLink(page, `${base}/api/customers/${lynn}/alerts/`).click()
  await page.waitForURL(`${base}/api/customers/${lynn}/alerts/`)
  await expect(answer(page).innerText()).resolves.toContain('"count": 0')

  // A 400: its body in the page, where the answer was.
  const editor = page.locator('#content')
  await expect(editor.inputValue().then((text) => JSON.parse(text))).resolves.toEqual({ alert_text: '' })
  await editor.fill(JSON.stringify({ alert_text: 'Owes for a chalk bag', color_hex: 'chalky' }))
  await page.getByRole('button', { name: 'POST', exact: true }).click()
  await answer(page).getByText('HTTP 400 Bad Request').waitFor()
  await expect(answer(page).innerText()).resolves.toContain(
    '"color_hex": [\n        "Enter a valid color: 6 hexadecimal digits, such as FF0000."\n    ]',
  )
  await expect(page.locator('#request-line').innerText()).resolves.toBe(`POST /api/customers/${lynn}/alerts/`)
  await page.screenshot({ path: '/tmp/browsable-400.png', fullPage: true })

  // Created with the session, then the new alert by its link.
  await editor.fill(JSON.stringify({ alert_text: 'Owes for a chalk bag', color_hex: '1f6feb' }))
  await page.getByRole('button', { name: 'POST', exact: true }).click()
  await answer(page).getByText('HTTP 201 Created').waitFor()
  const created = (await api('GET', `/api/customers/${lynn}/alerts/`, undefined, 200)).results
  expect(created.map((a: any) => [a.alert_text, a.color_hex])).toEqual([['Owes for a chalk bag', '1F6FEB']])
  const alertUrl = `${base}/api/customers/${lynn}/alerts/${created[0].id}/`
  await urlLink(page, alertUrl).click()
  await page.waitForURL(alertUrl)

  // PATCH: the editor holds the alert's fields; one changed.
  const fields = JSON.parse(await editor.inputValue())
  expect(fields).toEqual({
    alert_text: 'Owes for a chalk bag',
    color_hex: '1F6FEB',
    prevents_check_in: false,
    is_active: true,
  })
  await editor.fill(JSON.stringify({ alert_text: 'Paid for the chalk bag' }))
  await page.getByRole('button', { name: 'PATCH', exact: true }).click()
  // The page's own GET was a 200 too: wait for the PATCH's answer to take its place.
  await page.locator('#request-line', { hasText: 'PATCH' }).waitFor()
  await expect(answer(page).innerText()).resolves.toStartWith('HTTP 200 OK\nContent-Type: application/json')
  await expect(answer(page).innerText()).resolves.toContain('"alert_text": "Paid for the chalk bag"')
  await page.screenshot({ path: '/tmp/browsable-patched.png' })
  expect((await api('GET', alertUrl.slice(base.length), undefined, 200)).alert_text).toBe(
    'Paid for the chalk bag',
  )

  // Log out: the page is a 401 again.
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.getByText('HTTP 401 Unauthorized').waitFor()
  expect(reported.filter((text) => !/status of 40[01]/.test(text))).toEqual([])
}, 120_000)

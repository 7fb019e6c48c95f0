/**
 * The quick-sale editor in a real browser (Debian's Chromium through playwright-core, against the
 * built executable): an admin chooses two buttons on the Sell screen, one with words of its own,
 * puts the second first from the keyboard and saves; the row shows them in that order at once and
 * a click sells the product. A clerk who may sell sees the buttons and no editor. A product retired
 * while the editor is open is refused at its own button in words, saving nothing, and the editor
 * stops at eight buttons. One desk and one admin tab for the file.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, stopAll, type Server } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'

let server: Server
let browser: Browser
let api: DeskUnderTest['api']
let clerkToken: string
/** The admin's tab, on the Sell screen from the first test on. */
let admin: Page
let dayPassId: number
let punchCardId: number

beforeAll(async () => {
  const desk = await startDesk({
    email: 'owner@quick.example',
    password: 'owner-password-1',
    gym: 'Quick Crag',
  })
  ;({ server, browser, api } = desk)
  dayPassId = (
    await api(
      'POST',
      '/api/entry-passes/',
      { name: 'Day Pass', status: 'ACT', number_of_entries: 1, price: '18.00' },
      201,
    )
  ).id
  punchCardId = (
    await api(
      'POST',
      '/api/entry-passes/',
      { name: '10-Punch Card', status: 'ACT', number_of_entries: 10, price: '89.00' },
      201,
    )
  ).id
  await api(
    'POST',
    '/api/memberships/',
    { name: 'Monthly Unlimited', status: 'ACT', purchase_type: 'PRE', price: '65.00' },
    201,
  )
  clerkToken = await desk.staffToken('clerk@quick.example', 'clerk-password-1', ['can_manage_members'])
  admin = await openLoggedIn({ browser, server }, desk.token)
  await admin.setViewportSize({ width: 1366, height: 768 })
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

const openSell = (page: Page) => page.getByRole('button', { name: 'Sell', exact: true }).click()
const quickSales = (page: Page) => page.getByRole('navigation', { name: 'Quick sale' })
const editor = (page: Page) => page.getByRole('region', { name: 'Quick-sale buttons' })
const rows = (page: Page) => editor(page).getByRole('listitem')
/** Waits until the control named `name` (by its aria-label, else its words) has the focus. */
const focusOn = (page: Page, name: string) =>
  page.waitForFunction((name) => {
    const active = (globalThis as any).document.activeElement
    return (active?.getAttribute('aria-label') ?? active?.textContent) === name
  }, name)

async function addButton(page: Page, product: string, label = '') {
  const add = page.getByRole('form', { name: 'Add a button' })
  await add.getByRole('combobox').selectOption({ label: product })
  await add.getByRole('textbox').fill(label)
  await add.getByRole('button', { name: 'Add button' }).click()
}

test('an admin chooses two buttons, puts the second first and saves: the row shows them at once, and a click sells', async () => {
  await openSell(admin)
  await admin.getByText('No quick-sale buttons yet').waitFor()
  await admin.getByRole('button', { name: 'Choose buttons' }).click()
  expect(
    await editor(admin)
      .getByRole('heading', { name: 'Quick-sale buttons' })
      .evaluate((h) => h === (h as any).ownerDocument.activeElement),
  ).toBe(true)

  await addButton(admin, 'Day Pass, 18.00')
  await addButton(admin, '10-Punch Card, 89.00', '10 punches')
  expect(await rows(admin).allInnerTexts()).toEqual([
    expect.stringContaining('Day Pass'),
    expect.stringContaining('10-Punch Card'),
  ])
  // Every control of a row is a touch target.
  for (const control of await rows(admin).first().locator('input, button').all())
    expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(44)

  // From the keyboard: the moved button keeps the focus, on the move still open to it.
  await admin.getByRole('button', { name: 'Move 10-Punch Card earlier' }).focus()
  await admin.keyboard.press('Enter')
  await focusOn(admin, 'Move 10-Punch Card later')
  expect(await rows(admin).first().getByRole('textbox').inputValue()).toBe('10 punches')
  expect(await rows(admin).nth(1).getByRole('textbox').inputValue()).toBe('')
  await editor(admin).getByRole('button', { name: 'Save' }).click()

  await editor(admin).waitFor({ state: 'detached' })
  expect(await quickSales(admin).getByRole('button').allInnerTexts()).toEqual(['10 punches', 'Day Pass'])
  await focusOn(admin, 'Choose buttons')
  expect(await api('GET', '/api/organization/quick-sales/', undefined, 200)).toEqual({
    quick_sales: [
      { purchase_type: 'EPA', product_id: punchCardId, label: '10 punches' },
      { purchase_type: 'EPA', product_id: dayPassId, label: 'Day Pass' },
    ],
  })
  await quickSales(admin).getByRole('button', { name: '10 punches' }).click()
  expect(await admin.locator('.sale-lines li .item').allInnerTexts()).toEqual([
    expect.stringMatching(/^10-Punch Card/),
  ])
})

test('a clerk who may sell sees the buttons and no way to choose them', async () => {
  const clerk = await openLoggedIn({ browser, server }, clerkToken)
  await openSell(clerk)
  await quickSales(clerk).waitFor()
  expect(await quickSales(clerk).getByRole('button').allInnerTexts()).toEqual(['10 punches', 'Day Pass'])
  expect(await clerk.getByRole('button', { name: 'Choose buttons' }).count()).toBe(0)
  await clerk.context().close()
})

test('a product retired while the editor is open is refused at its button in words; the editor stops at eight', async () => {
  await admin.getByRole('button', { name: 'Choose buttons' }).click()
  // Retired behind the page's back: the editor still offers it, and the box refuses it.
  await api('PATCH', `/api/entry-passes/${dayPassId}/`, { status: 'RET' }, 200)
  await editor(admin).getByRole('button', { name: 'Save' }).click()
  const messages = editor(admin).getByRole('status')
  await messages.waitFor()
  expect(await messages.count()).toBe(1)
  expect(await rows(admin).nth(1).getByRole('status').innerText()).toBe(
    'This product is no longer for sale: remove this button.',
  )
  expect((await api('GET', '/api/organization/quick-sales/', undefined, 200)).quick_sales).toHaveLength(2)

  await admin.getByRole('button', { name: 'Remove Day Pass' }).click()
  await focusOn(admin, 'Remove 10-Punch Card')
  for (let added = 1; added < 8; added++) await addButton(admin, 'Monthly Unlimited, 65.00')
  expect(await rows(admin).count()).toBe(8)
  const add = admin.getByRole('button', { name: 'Add button' })
  expect(await add.isDisabled()).toBe(true)
  expect(await admin.getByText('8 buttons is the most the Sell screen shows').count()).toBe(1)
  await editor(admin).getByRole('button', { name: 'Cancel' }).click()
  expect(await quickSales(admin).getByRole('button').allInnerTexts()).toEqual(['10 punches', 'Day Pass'])
})

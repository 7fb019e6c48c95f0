/**
 * The Today screen in Chromium: the day's list narrowed by where people are, how they came in and
 * their name, and a check-out taken back within its few seconds.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { removeTempDirs, stopAll } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'

let desk: DeskUnderTest
const DAY_MS = 86_400_000

beforeAll(async () => {
  desk = await startDesk({ email: 'today@crag.example', password: 'correct-horse-battery-9', gym: 'Crag' })
  const monthly = await desk.api(
    'POST',
    '/api/memberships/',
    { name: 'Monthly', status: 'ACT', purchase_type: 'PRE' },
    201,
  )
  const lastYear = new Date(Date.now() - 365 * DAY_MS).toISOString().slice(0, 10)
  for (const [first, last, barcode] of [
    ['Lynn', 'Hill', 'LH-1'],
    ['Lynn', 'Raven', 'LR-2'],
    ['Tommy', 'Caldwell', 'TC-3'],
  ]) {
    const c = await desk.api(
      'POST',
      '/api/customers/',
      { first_name: first, last_name: last, birthday: '1990-05-01', barcode },
      201,
    )
    await desk.api('POST', `/api/customers/${c.id}/documents/`, { name: 'Waiver' }, 201)
    await desk.api(
      'POST',
      '/api/customer-memberships/',
      { membership_id: monthly.id, owner_id: c.id, start_date: lastYear },
      201,
    )
    await desk.api('POST', `/api/gym-endpoints/barcode-check-in/${barcode}/`, {}, 200)
  }
  // A guest's free entry, so the list holds two ways in.
  const walkIn = await desk.api(
    'POST',
    '/api/customers/',
    { first_name: 'Sasha', last_name: 'DiGiulian', birthday: '1992-01-23' },
    201,
  )
  await desk.api('POST', `/api/customers/${walkIn.id}/documents/`, { name: 'Waiver' }, 201)
  await desk.api(
    'POST',
    `/api/gym-endpoints/free-entry-check-in/${walkIn.id}/`,
    { free_entry_reason: 'Route setter' },
    201,
  )
})

afterAll(async () => {
  await desk?.browser.close()
  await stopAll()
  removeTempDirs()
})

async function openToday(): Promise<Page> {
  const page = await openLoggedIn(desk, desk.token, { fakeClock: true })
  await page.getByRole('button', { name: 'Today' }).click()
  await page.locator('.occupancy').waitFor()
  return page
}

/**
 * What `read` answers once it settles on `expected`, or its last answer after `ms`: for a list the
 * page redraws when its next answer comes.
 */
async function settled<T>(read: () => Promise<T>, expected: T, ms = 5000): Promise<T> {
  const until = Date.now() + ms
  let value = await read()
  while (!Bun.deepEquals(value, expected) && Date.now() < until) {
    await Bun.sleep(100)
    value = await read()
  }
  return value
}

const names = (page: Page) => page.locator('tbody tr td:nth-child(2)').allInnerTexts()

test('the list narrows by where people are, by entry and by name as it is typed', async () => {
  const page = await openToday()
  await page.getByRole('cell', { name: 'Tommy Caldwell', exact: true }).waitFor()
  expect(await names(page)).toEqual(expect.arrayContaining(['Tommy Caldwell', 'Lynn Raven', 'Lynn Hill']))

  await page.getByRole('searchbox', { name: 'Name' }).fill('lynn')
  expect(await settled(() => names(page), ['Lynn Raven', 'Lynn Hill'])).toEqual(['Lynn Raven', 'Lynn Hill'])
  expect(await page.locator('caption').innerText()).toContain('2 named "lynn"')
  await page.getByRole('searchbox', { name: 'Name' }).fill('lynn h')
  expect(await settled(() => names(page), ['Lynn Hill'])).toEqual(['Lynn Hill'])
  await page.getByRole('searchbox', { name: 'Name' }).fill('')

  await page.getByLabel('Entry').selectOption({ label: 'Members' })
  expect(await settled(() => names(page), ['Tommy Caldwell', 'Lynn Raven', 'Lynn Hill'])).toEqual([
    'Tommy Caldwell',
    'Lynn Raven',
    'Lynn Hill',
  ])

  // Tommy leaves; "Checked out" shows him alone, "Still inside" the others.
  await page.getByRole('button', { name: 'Check out Tommy Caldwell' }).click()
  const undo = page.getByRole('button', { name: 'Undo checking out Tommy Caldwell' })
  await undo.waitFor()
  await page.clock.fastForward(5_500)
  await undo.waitFor({ state: 'detached' })
  await page.getByRole('button', { name: 'Checked out' }).click()
  expect(await settled(() => names(page), ['Tommy Caldwell'])).toEqual(['Tommy Caldwell'])
  expect(await page.getByRole('button', { name: 'Checked out' }).getAttribute('aria-pressed')).toBe('true')
  await page.getByRole('button', { name: 'Still inside' }).click()
  expect(await settled(() => names(page), ['Lynn Raven', 'Lynn Hill'])).toEqual(['Lynn Raven', 'Lynn Hill'])
  expect(await page.locator('caption').innerText()).toBe('2 check-ins today at Crag, still inside')
})

test('a check-out can be taken back for a few seconds; leaving the screen sends it', async () => {
  const page = await openToday()
  const checkOut = page.getByRole('button', { name: 'Check out Lynn Raven' })
  await checkOut.click()
  const undo = page.getByRole('button', { name: 'Undo checking out Lynn Raven' })
  await undo.click()
  await checkOut.waitFor()
  // Still inside after the few seconds have passed: nothing was sent.
  await page.clock.fastForward(5_500)
  expect(await checkOut.isVisible()).toBe(true)
  const stillIn = await desk.api('GET', '/api/check-ins/?has_checked_out=false&page_size=100', undefined, 200)
  expect(stillIn.results.map((c: { customer_last_name: string }) => c.customer_last_name)).toContain('Raven')

  // Checked out, then straight to another screen: the check-out is sent, not dropped.
  await checkOut.click()
  await undo.waitFor()
  await page.getByRole('button', { name: 'Check-in' }).click()
  const checkedOut = async () => {
    const left = await desk.api('GET', '/api/check-ins/?has_checked_out=true&page_size=100', undefined, 200)
    return left.results.some((c: { customer_last_name: string }) => c.customer_last_name === 'Raven')
  }
  expect(await settled(checkedOut, true, 8000)).toBe(true)
})

test('every button on Today is at least 44 px tall at the tablet size', async () => {
  const page = await openToday()
  await page.setViewportSize({ width: 1024, height: 768 })
  await page
    .getByRole('button', { name: /^Check out / })
    .first()
    .waitFor()
  const heights = await page
    .locator('main button, main select, main input')
    .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().height)))
  expect(heights.length).toBeGreaterThan(3)
  expect(heights.filter((h) => h < 44)).toEqual([])
})

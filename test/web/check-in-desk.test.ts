/**
 * The desk's check-ins in a real browser (Debian's Chromium against the built executable): a
 * customer without a card checked in from a search, the amber duplicate, a red card's way forward,
 * the strip of recent scans, family check-in, the capacity warning, and on a customer's page the
 * check-in, a card given and details edited. Screenshots of the cards at the desk's and the
 * tablet's size go to /tmp/belay-check-in-shots for a person to look at.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, request, stopAll, type Server } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { ageOn, todayIn } from '../../src/web/format.ts'

const SHOTS = '/tmp/belay-check-in-shots'
const DAY_MS = 86_400_000
const SCAN_LABEL = 'Scan a card or type a barcode, then Enter'

let server: Server
let browser: Browser
let token: string
let api: DeskUnderTest['api']
let ids: Record<string, number> = {}
let tinyGym: number

/** Their age today, as the cards' badge reads it: born 1990-05-01, in the gym's zone. */
const AGE = String(ageOn('1990-05-01', todayIn('America/Denver')))

/** A customer with a waiver, holding the membership when given one; a card when given a barcode. */
async function customer(first: string, last: string, barcode: string | null, membershipId: number | null) {
  const c = await api(
    'POST',
    '/api/customers/',
    { first_name: first, last_name: last, birthday: '1990-05-01', barcode },
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
  ids[first] = c.id
  return c.id as number
}

beforeAll(async () => {
  ;({ server, browser, token, api } = await startDesk({
    email: 'desk@smith.example',
    password: 'correct-horse-battery-9',
    gym: 'Smith Rock Gym',
  }))
  const tiny = await api(
    'POST',
    '/api/gyms/',
    { name: 'Tiny Wall', time_zone: 'America/Denver', capacity: 1 },
    201,
  )
  tinyGym = tiny.id
  const monthly = await api(
    'POST',
    '/api/memberships/',
    { name: 'Monthly Unlimited', status: 'ACT', purchase_type: 'PRE' },
    201,
  )
  await customer('Nina', 'Williams', null, monthly.id)
  await customer('Margo', 'Hayes', 'MH-1', null)
  const chris = await customer('Chris', 'Sharma', 'CS-1', monthly.id)
  for (const child of [
    await customer('Ava', 'Sharma', null, monthly.id),
    await customer('Leo', 'Sharma', null, monthly.id),
  ])
    await api(
      'POST',
      `/api/customers/${chris}/relations/`,
      { related_customer_id: child, relation: 'CHI' },
      201,
    )
  await customer('Daniel', 'Woods', 'DW-1', monthly.id)
  await customer('Janja', 'Garnbret', 'JG-1', monthly.id)
  await customer('Adam', 'Ondra', 'AO-1', monthly.id)
  await customer('Shauna', 'Coxsey', 'SC-1', monthly.id)
  mkdirSync(SHOTS, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

async function openDesk(gymId = 1, size: { width: number; height: number } = { width: 1366, height: 768 }) {
  const page = await openLoggedIn({ browser, server }, token, { gymId })
  await page.setViewportSize(size)
  await page.getByLabel(SCAN_LABEL).waitFor()
  return page
}

async function scan(page: Page, barcode: string) {
  await page.getByLabel(SCAN_LABEL).fill(barcode)
  await page.keyboard.press('Enter')
}

const cardLines = async (page: Page) =>
  (await page.locator('.card').innerText())
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')

const shoot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` })

describe('the check-in screen', () => {
  test('a customer without a card, found by name, is checked in by the door’s rules', async () => {
    const page = await openDesk()
    await page.getByLabel('Forgot their card? Find by name').fill('nina')
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Check in Nina Williams' }).click()
    await page.locator('.card.ok').waitFor()
    expect(await cardLines(page)).toEqual([
      'CHECKED IN',
      'Nina Williams',
      'Monthly Unlimited',
      'Check-in number 1',
      '1st check-in',
      AGE,
    ])
    // Again: the same duplicate window as the door, an amber card saying since when.
    await page.getByLabel('Forgot their card? Find by name').fill('nina')
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Check in Nina Williams' }).click()
    await page.locator('.card.notice').waitFor()
    expect((await cardLines(page))[0]).toMatch(/^ALREADY INSIDE SINCE \d{2}:\d{2}$/)
    await shoot(page, 'amber-1366')
  })

  test('a red card says why and offers a way forward: Open customer, Sell a day pass', async () => {
    const page = await openDesk()
    await scan(page, 'MH-1')
    await page.locator('.card.refused').waitFor()
    expect(await cardLines(page)).toEqual([
      'NOT CHECKED IN',
      'Margo Hayes',
      'No membership, entry pass or event booking.',
      'Sell a day pass',
      'Open customer',
      'Dismiss',
      AGE,
    ])
    await shoot(page, 'red-1366')
    await page.setViewportSize({ width: 1024, height: 768 })
    await shoot(page, 'red-1024')
    for (const button of await page.locator('.card-actions button').all())
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44)
    await page.getByRole('button', { name: 'Open customer' }).click()
    await page.getByRole('heading', { name: 'Margo Hayes', level: 2 }).waitFor()

    const again = await openDesk()
    await scan(again, 'MH-1')
    await again.getByRole('button', { name: 'Sell a day pass' }).click()
    await again.locator('.tab[aria-current="page"]', { hasText: 'Sell' }).waitFor()
  })

  test('family: the green card lists them, and "Check in all" checks each in by id', async () => {
    const page = await openDesk()
    await scan(page, 'CS-1')
    await page.locator('.card.ok .family li').nth(1).waitFor()
    expect(await page.locator('.card .family li').allInnerTexts()).toEqual([
      'Ava Sharma (child)\nCheck in',
      'Leo Sharma (child)\nCheck in',
    ])
    await shoot(page, 'family-1366')
    await page.getByRole('button', { name: 'Check in all' }).click()
    await page.locator('.family-outcome.ok').nth(1).waitFor()
    expect(await page.locator('.family-outcome').allInnerTexts()).toEqual(['Checked in', 'Checked in'])
    // The strip: the newest first, each a customer to open.
    await page.locator('.recent-scans li').nth(2).waitFor()
    expect(await page.locator('.recent-scans .scan-name').allInnerTexts()).toEqual([
      'Leo Sharma',
      'Ava Sharma',
      'Chris Sharma',
    ])
    const checkIns = await api('GET', `/api/check-ins/?customer_id=${ids.Leo}`, undefined, 200)
    expect(checkIns.results.map((c: { entry_method: string }) => c.entry_method)).toEqual(['MEM'])
  })

  test('the strip keeps the last ten scans with their colour; one opens that customer', async () => {
    const page = await openDesk()
    const codes = ['DW-1', 'JG-1', 'AO-1', 'SC-1', 'MH-1', 'NOPE-1', 'DW-1', 'JG-1', 'AO-1', 'SC-1', 'MH-1']
    const names: Record<string, string> = {
      'DW-1': 'Daniel Woods',
      'JG-1': 'Janja Garnbret',
      'AO-1': 'Adam Ondra',
      'SC-1': 'Shauna Coxsey',
      'MH-1': 'Margo Hayes',
      'NOPE-1': 'Barcode NOPE-1',
    }
    for (const code of codes) {
      await scan(page, code)
      await page.locator('.recent-scans li').first().filter({ hasText: names[code]! }).waitFor()
    }
    expect(await page.locator('.recent-scans li').count()).toBe(10)
    const tones = await page.locator('.recent-scans li').evaluateAll((lis) => lis.map((li) => li.className))
    expect(tones).toEqual([
      'refused',
      'notice',
      'notice',
      'notice',
      'notice',
      'refused',
      'refused',
      'ok',
      'ok',
      'ok',
    ])
    await shoot(page, 'strip-1366')
    await page.locator('.recent-scans button', { hasText: 'Janja Garnbret' }).first().click()
    await page.getByRole('heading', { name: 'Janja Garnbret', level: 2 }).waitFor()
  })

  test('at capacity: a warning card and the occupancy, staff still decide', async () => {
    const page = await openDesk(tinyGym)
    expect(await page.locator('.occupancy').innerText()).toBe('Inside now: 0 of 1')
    await scan(page, 'SC-1')
    await page.locator('.card.ok').waitFor()
    await page.locator('.capacity-warning.full').waitFor()
    expect(await page.locator('.capacity-warning').innerText()).toBe(
      'Gym full: 1 of 1 inside. Staff decide who else comes in.',
    )
    await shoot(page, 'full-1366')
    await page.setViewportSize({ width: 1024, height: 768 })
    await shoot(page, 'full-1024')
  })
})

describe("a customer's page", () => {
  test('check in from the page; give a card (a taken one refused in words); edit details with errors at their fields', async () => {
    const page = await openDesk()
    await page.getByRole('button', { name: 'Customers' }).click()
    await page.getByLabel('Name, email or barcode').fill('margo')
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Margo Hayes' }).first().click()
    await page.getByRole('heading', { name: 'Margo Hayes', level: 2 }).waitFor()
    await page.getByRole('button', { name: 'Check in', exact: true }).click()
    await page.locator('.card.refused').waitFor()
    expect((await cardLines(page)).slice(0, 3)).toEqual([
      'NOT CHECKED IN',
      'Margo Hayes',
      'No membership, entry pass or event booking.',
    ])

    await page.getByLabel('Replace the card: scan the new one').fill('CS-1')
    await page.keyboard.press('Enter')
    await page.getByText('Another customer already has this card: scan a new one.').waitFor()
    await page.getByLabel('Replace the card: scan the new one').fill('MH-2')
    await page.keyboard.press('Enter')
    await page.getByText('Card MH-2 given.').waitFor()
    await page.locator('.identity dd', { hasText: 'MH-2' }).waitFor()

    await page.getByRole('button', { name: 'Edit details' }).click()
    await page.getByLabel('First name').fill('')
    await page.getByLabel('Phone').fill('541-555-0100')
    await page.getByRole('button', { name: 'Save details' }).click()
    const error = page.locator('#customer-first_name-error')
    await error.waitFor()
    expect(await error.innerText()).toBe('Fill this in.')
    await shoot(page, 'edit-1366')
    await page.getByLabel('First name').fill('Margo')
    await page.getByRole('button', { name: 'Save details' }).click()
    await page.locator('.identity dd', { hasText: '541-555-0100' }).waitFor()
    await page.setViewportSize({ width: 1024, height: 768 })
    await shoot(page, 'customer-1024')
  })

  test('a card-less customer checked in from the Customers search row', async () => {
    const page = await openDesk()
    await page.getByRole('button', { name: 'Customers' }).click()
    await page.getByLabel('Name, email or barcode').fill('ava')
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Check in Ava Sharma' }).click()
    await page.locator('.card').waitFor()
    // Checked in with her family already: amber, since when.
    expect((await cardLines(page))[1]).toBe('Ava Sharma')
  })
})

test('ten simultaneous check-ins of one customer by id over HTTP record exactly one', async () => {
  const id = ids.Daniel!
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      request(server.base, 'POST', `/api/customers/${id}/check-in/`, {
        token,
        json: { location_id: tinyGym },
      }),
    ),
  )
  expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(400)])
  expect(new Set(answers.filter((a) => a.status === 400).map((a) => a.body.error))).toEqual(
    new Set(['duplicate_check_in']),
  )
  const stored = await api('GET', `/api/check-ins/?customer_id=${id}&location_id=${tinyGym}`, undefined, 200)
  expect(stored.count).toBe(1)
})

/**
 * The front desk in a real browser: Debian's Chromium driven through playwright-core against the
 * built executable on a free port, as the person at the desk uses it: logging in, choosing the
 * desk's gym, scanning cards, finding a customer by name, watching Today, logging out. One browser
 * for the file, a fresh page (and storage) for each test.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, request, stopAll, type Server } from '../e2e/helpers.ts'
import { newTab, openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { textContrasts } from './contrast.ts'
import { ageOn, todayIn } from '../../src/web/format.ts'

const ADMIN_EMAIL = 'desk@flatirons.example'
const ADMIN_PASSWORD = 'correct-horse-battery-9'
const GYM = 'Flatirons Boulders'
const DAY_MS = 86_400_000
const SOUTH = 'Flatirons South'
const SCAN_LABEL = 'Scan a card or type a barcode, then Enter'

let server: Server
let browser: Browser
let token: string
let api: DeskUnderTest['api']

/** Their age today, as the cards' badge reads it: born 1990-05-01, in the gym's zone. */
const AGE = String(ageOn('1990-05-01', todayIn('America/Denver')))

/** A customer with a barcode holding the membership, with a waiver unless told. */
async function customer(first: string, last: string, barcode: string, membershipId: number, waiver = true) {
  const c = await api(
    'POST',
    '/api/customers/',
    { first_name: first, last_name: last, birthday: '1990-05-01', barcode },
    201,
  )
  if (waiver) await api('POST', `/api/customers/${c.id}/documents/`, { name: 'Waiver' }, 201)
  const lastYear = new Date(Date.now() - 365 * DAY_MS).toISOString().slice(0, 10)
  await api(
    'POST',
    '/api/customer-memberships/',
    { membership_id: membershipId, owner_id: c.id, start_date: lastYear },
    201,
  )
  return c.id as number
}

beforeAll(async () => {
  ;({ server, browser, token, api } = await startDesk({
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    gym: GYM,
  }))
  // A second gym, so the desk asks which one it stands in; Today is watched there.
  await api('POST', '/api/gyms/', { name: SOUTH, time_zone: 'America/Denver', capacity: 2 }, 201)
  const monthly = await api(
    'POST',
    '/api/memberships/',
    { name: 'Monthly Unlimited', status: 'ACT', purchase_type: 'PRE' },
    201,
  )
  const lynn = await customer('Lynn', 'Hill', 'LH-1001', monthly.id)
  await api(
    'POST',
    `/api/customers/${lynn}/alerts/`,
    { alert_text: 'Owes for a chalk bag', color_hex: '1F6FEB' },
    201,
  )
  await customer('Alex', 'Honnold', 'AH-2002', monthly.id, false)
  await customer('Tommy', 'Caldwell', 'TC-3003', monthly.id)
  await customer('Beth', 'Rodden', 'BR-4004', monthly.id)
  await customer('Hazel', 'Findlay', 'HF-5005', monthly.id)
  await customer('Sasha', 'DiGiulian', 'SD-6006', monthly.id)
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

/** A new tab in a fresh browser profile (nothing remembered) at the desk's address. */
async function freshPage(): Promise<Page> {
  const page = await newTab(browser)
  await page.goto(`${server.base}/`)
  return page
}

/** A tab in a fresh profile, its waits short enough that one failing leaves the test time to say so. */
async function logIn(page: Page, password = ADMIN_PASSWORD) {
  await page.getByLabel('Email').fill(ADMIN_EMAIL)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

const scanBox = (page: Page) => page.getByLabel(SCAN_LABEL)

/** Logged in through the login screen, at the gym (the first unless told), on the check-in screen. */
async function logInToDesk(gym = GYM): Promise<Page> {
  const page = await freshPage()
  await logIn(page)
  await page.getByLabel('Gym', { exact: true }).selectOption({ label: gym })
  await page.getByRole('button', { name: 'Use this gym' }).click()
  await scanBox(page).waitFor()
  return page
}

/** The desk as a tab that logged in earlier finds it, on the check-in screen. */
async function openDesk(
  gymId = 1,
  options: { fakeClock?: boolean; beforePage?: string } = {},
): Promise<Page> {
  const page = await openLoggedIn({ browser, server }, token, { gymId, ...options })
  await scanBox(page).waitFor()
  return page
}

/** Types as a USB scanner does (the barcode, then Enter) into whatever has the focus. */
async function scan(page: Page, barcode: string) {
  await page.keyboard.type(barcode)
  await page.keyboard.press('Enter')
}

/** The card's lines as they read on the screen. */
async function cardLines(page: Page): Promise<string[]> {
  const text = await page.locator('.card').innerText()
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** Scans, then waits for the card to answer: a card that reads differently from the one before. */
async function scanForCard(page: Page, barcode: string): Promise<string[]> {
  const card = page.locator('.card')
  const before = (await card.count()) === 0 ? null : await card.textContent()
  await scan(page, barcode)
  const sameAsBefore = new RegExp(`^${(before ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
  await (before === null ? card : card.filter({ hasNotText: sameAsBefore })).waitFor()
  return cardLines(page)
}

/** The name of the field with the focus ('barcode' is the scan box); null when none has it. */
async function focusedField(page: Page): Promise<string | null> {
  const focused = page.locator(':focus')
  return (await focused.count()) === 0 ? null : focused.getAttribute('name')
}

describe('logging in', () => {
  test("a wrong password: the API's own words, and still the login", async () => {
    const page = await freshPage()
    await logIn(page, 'not-the-password')
    expect(await page.getByRole('alert').innerText()).toBe('Unable to log in with provided credentials.')
    expect(await page.getByRole('button', { name: 'Log in' }).isVisible()).toBe(true)
  })

  test('from the keyboard alone; the gym is asked once, then remembered across a reload', async () => {
    const page = await freshPage()
    // The email field has the focus on arrival; Tab and Enter do the rest.
    await page.locator('input[name="email"]:focus').waitFor()
    await page.keyboard.type(ADMIN_EMAIL)
    await page.keyboard.press('Tab')
    await page.keyboard.type(ADMIN_PASSWORD)
    await page.keyboard.press('Enter')
    const gym = page.getByLabel('Gym', { exact: true })
    await gym.waitFor()
    // The user's default gym comes first, with the focus; Tab to the button and Enter take it.
    expect(await gym.inputValue()).toBe('1')
    // Each screen gives the focus once it is drawn: waited for, not read at once.
    await page.locator('[name="gym"]:focus').waitFor()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.locator('input[name="barcode"]:focus').waitFor()
    expect(await page.getByRole('button', { name: `Gym: ${GYM}. Change gym` }).isVisible()).toBe(true)

    await page.reload()
    await scanBox(page).waitFor()
    expect(await page.getByLabel('Gym', { exact: true }).count()).toBe(0)
  })
})

describe('the check-in screen', () => {
  test('a member: the green card with the name, entry method, count, milestone and the alert', async () => {
    const page = await openDesk()
    expect(await scanForCard(page, 'LH-1001')).toEqual([
      'CHECKED IN',
      'Lynn Hill',
      'Monthly Unlimited',
      'Check-in number 1',
      '1st check-in',
      'Owes for a chalk bag',
      AGE,
    ])
    expect(await page.locator('.card.ok').count()).toBe(1)
    // The alert keeps its colour beside dark text on white.
    expect(await page.locator('.card .alerts li').getAttribute('style')).toBe(
      'border-left-color: rgb(31, 111, 235);',
    )
    expect(await focusedField(page)).toBe('barcode')
  })

  test('the same member again is amber, since when; an unknown barcode and no waiver are red with the reason', async () => {
    const page = await openDesk()
    const again = await scanForCard(page, 'LH-1001')
    expect(again[0]).toMatch(/^ALREADY INSIDE SINCE \d{2}:\d{2}$/)
    expect(again.slice(1)).toEqual([
      'Lynn Hill',
      'Checked in here a moment ago: nothing new recorded.',
      'Open customer',
      AGE,
    ])
    expect(await page.locator('.card.notice').count()).toBe(1)
    expect(await scanForCard(page, 'NO-SUCH-CARD')).toEqual([
      'NOT CHECKED IN',
      'Barcode NO-SUCH-CARD',
      'No active customer has this barcode.',
      'Dismiss',
    ])
    expect(await scanForCard(page, 'AH-2002')).toEqual([
      'NOT CHECKED IN',
      'Alex Honnold',
      'No signed waiver.',
      'Sign waiver',
      'Open customer',
      'Dismiss',
      AGE,
    ])
    expect(await page.locator('.card.refused').count()).toBe(1)
    expect(await focusedField(page)).toBe('barcode')
  })

  test('every text on the screen and on the green, amber and red cards meets WCAG AA contrast (4.5:1)', async () => {
    const page = await openDesk()
    const texts = page.locator(
      '.bar span, .bar button, label, .search button, .card p, .card h2, .card li, .card button, .recent-scans button, .occupancy',
    )
    await scanForCard(page, 'HF-5005')
    const onGreen = await textContrasts(texts)
    await scanForCard(page, 'HF-5005')
    expect(await page.locator('.card.notice').count()).toBe(1)
    const onAmber = await textContrasts(texts)
    await scanForCard(page, 'AH-2002')
    expect(await page.locator('.card.refused').count()).toBe(1)
    const onRed = await textContrasts(texts)
    expect(onGreen.length).toBeGreaterThan(8)
    expect([...onGreen, ...onAmber, ...onRed].filter((t) => t.ratio < 4.5)).toEqual([])
  })

  test('each outcome sounds its own short tune, made by the browser', async () => {
    // Every note the page starts, as its waveform and pitch.
    const page = await openDesk(1, {
      beforePage: `
        window.notes = []
        const start = OscillatorNode.prototype.start
        OscillatorNode.prototype.start = function (...args) {
          window.notes.push(this.type + ' ' + this.frequency.value)
          return start.apply(this, args)
        }`,
    })
    const tunes: string[] = []
    for (const barcode of ['SD-6006', 'SD-6006', 'NO-SUCH-CARD', 'AH-2002']) {
      await scanForCard(page, barcode)
      // The tune may start a moment after the card shows.
      await page.waitForFunction(() => (globalThis as unknown as { notes: string[] }).notes.length > 0)
      tunes.push(
        await page.evaluate(() => (globalThis as unknown as { notes: string[] }).notes.splice(0).join(', ')),
      )
    }
    expect(tunes.every((tune) => tune !== '')).toBe(true)
    expect(new Set(tunes).size).toBe(4)
  })

  test('a green card clears itself after a few seconds; a red one stays until Esc or Dismiss', async () => {
    const page = await openDesk(1, { fakeClock: true })
    await scanForCard(page, 'BR-4004')
    await page.clock.fastForward(5_000)
    expect(await page.locator('.card.ok').count()).toBe(1)
    await page.clock.fastForward(1_500)
    await page.locator('.card').waitFor({ state: 'detached' })

    await scanForCard(page, 'NO-SUCH-CARD')
    await page.clock.fastForward(60_000)
    expect(await page.locator('.card.refused').count()).toBe(1)
    await page.keyboard.press('Escape')
    await page.locator('.card').waitFor({ state: 'detached' })
    await scanForCard(page, 'NO-SUCH-CARD')
    await page.getByRole('button', { name: 'Dismiss' }).click()
    await page.locator('.card').waitFor({ state: 'detached' })
  })

  test('the scan box takes the focus back from a click elsewhere, never from the name search', async () => {
    const page = await openDesk()
    const search = page.getByLabel('Forgot their card? Find by name')
    await search.click()
    await page.keyboard.type('Cald')
    expect(await focusedField(page)).toBe('search')
    // A click on the page's background.
    await page.mouse.click(5, 500)
    await page.locator('input[name="barcode"]:focus').waitFor()
    expect(await search.inputValue()).toBe('Cald')
  })

  test('a customer without their card: found by name and checked in with the barcode on file', async () => {
    const page = await openDesk()
    await page.getByLabel('Forgot their card? Find by name').fill('caldwell')
    await page.keyboard.press('Enter')
    const chosen = page.getByRole('button', { name: 'Check in Tommy Caldwell' })
    await chosen.waitFor()
    expect(await page.locator('.found').innerText()).toBe('1 found.')
    await chosen.click()
    await page.locator('.card').waitFor()
    expect(await cardLines(page)).toEqual([
      'CHECKED IN',
      'Tommy Caldwell',
      'Monthly Unlimited',
      'Check-in number 1',
      '1st check-in',
      AGE,
    ])
    // The click on the found customer took the focus; the scan box takes it back.
    await page.locator('input[name="barcode"]:focus').waitFor()
  })
})

/** The names down Today's list, top first. */
const todayNames = (page: Page) => page.locator('tbody tr td:nth-child(2)').allInnerTexts()

describe('Today', () => {
  test('check-ins made at a door show within 2 s, newest first, against the capacity; check-out from the list', async () => {
    const page = await openDesk(2, { fakeClock: true })
    // From the scan box, back through the header (Log out, the gym, the screens after Today) to
    // Today, keys only.
    for (let i = 0; i < 12 && (await page.locator(':focus').innerText()) !== 'Today'; i++)
      await page.keyboard.press('Shift+Tab')
    expect(await page.locator(':focus').innerText()).toBe('Today')
    await page.keyboard.press('Enter')
    const occupancy = page.locator('.occupancy')
    await occupancy.waitFor()
    expect(await occupancy.innerText()).toBe('Inside now: 0 of 2 (0%)')
    expect(await page.locator('caption').innerText()).toBe('0 check-ins today at Flatirons South')

    const doorCheckIn = (barcode: string) =>
      api('POST', `/api/gym-endpoints/barcode-check-in/${barcode}/`, { location_id: 2 }, 200)
    await doorCheckIn('BR-4004')
    await page.getByRole('cell', { name: 'Beth Rodden', exact: true }).waitFor({ timeout: 2_000 })
    expect(await occupancy.innerText()).toBe('Inside now: 1 of 2 (50%)')
    expect(await occupancy.getAttribute('class')).toBe('occupancy normal')

    await doorCheckIn('TC-3003')
    await page.getByRole('cell', { name: 'Tommy Caldwell', exact: true }).waitFor({ timeout: 2_000 })
    expect(await todayNames(page)).toEqual(['Tommy Caldwell', 'Beth Rodden'])
    expect(await page.locator('caption').innerText()).toBe('2 check-ins today at Flatirons South')
    expect(await occupancy.innerText()).toBe('Inside now: 2 of 2 (100%)')
    expect(await occupancy.getAttribute('class')).toBe('occupancy full')
    expect((await textContrasts(occupancy))[0]!.ratio).toBeGreaterThanOrEqual(4.5)

    await page.getByRole('button', { name: 'Check out Beth Rodden' }).focus()
    await page.keyboard.press('Enter')
    // The check-out waits a few seconds for an Undo, then is sent.
    const undo = page.getByRole('button', { name: 'Undo checking out Beth Rodden' })
    await undo.waitFor()
    await page.clock.fastForward(5_500)
    await undo.waitFor({ state: 'detached' })
    await page.getByText('Inside now: 1 of 2 (50%)').waitFor()
    const bethOut = await page
      .locator('tbody tr', { hasText: 'Beth Rodden' })
      .locator('td')
      .last()
      .innerText()
    expect(bethOut).toMatch(/^\d{2}:\d{2}$/)
    expect(await page.getByRole('button', { name: 'Check out Tommy Caldwell' }).isVisible()).toBe(true)
  })
})

describe('leaving', () => {
  /** The tab's session cookies as the browser keeps them (the test reads them; the page cannot). */
  const sessionOf = async (page: Page) => {
    const cookies = await page.context().cookies()
    const value = (name: string) => cookies.find((c) => c.name === name)?.value
    return { key: value('sessionid'), csrf: value('csrftoken') }
  }

  test('a session that ends elsewhere sends the desk back to the login, the gym still known', async () => {
    const page = await logInToDesk()
    const { key, csrf } = await sessionOf(page)
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    const logout = await request(server.base, 'POST', '/api/logout/', {
      headers: { cookie: `sessionid=${key}`, 'x-csrftoken': csrf! },
    })
    expect(logout.status).toBe(204)
    await scan(page, 'LH-1001')
    await page.getByRole('button', { name: 'Log in' }).waitFor()
    expect(await page.locator('.notice').innerText()).toBe('Your session has ended: log in again.')
    await logIn(page)
    await scanBox(page).waitFor()
    expect(await page.getByLabel('Gym', { exact: true }).count()).toBe(0)
  })

  test('log out: back to the login, the session ended and its cookies gone, also after a reload', async () => {
    const page = await logInToDesk()
    const { key } = await sessionOf(page)
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.getByRole('button', { name: 'Log in' }).waitFor()
    expect(await page.locator('.notice').innerText()).toBe('You have logged out.')
    expect(await sessionOf(page)).toEqual({ key: undefined, csrf: undefined })
    const after = await request(server.base, 'GET', '/api/my-account/', {
      headers: { cookie: `sessionid=${key}` },
    })
    expect(after.status).toBe(401)
    await page.reload()
    await page.getByRole('button', { name: 'Log in' }).waitFor()
  })

  test("no credential the page's scripts can read: only the CSRF token, and the desk still works", async () => {
    const memberships = await api('GET', '/api/memberships/', undefined, 200)
    const id = await customer('Margo', 'Hayes', 'MH-7007', memberships.results[0].id)
    const page = await logInToDesk()
    const { key, csrf } = await sessionOf(page)
    // As text: it runs in the page, and the tests are type-checked without the DOM's types.
    const seen = await page.evaluate(
      '({ cookie: document.cookie, session: Object.entries(sessionStorage), local: Object.entries(localStorage) })',
    )
    expect(seen).toEqual({ cookie: `csrftoken=${csrf}`, session: [], local: [['belay.gym', '1']] })
    expect(JSON.stringify(seen)).not.toContain(key!)
    // An unsafe request from the page (the scan) passes the CSRF check.
    expect(await scanForCard(page, 'MH-7007')).toContain('CHECKED IN')
    const checkIns = await api('GET', `/api/check-ins/?customer_id=${id}`, undefined, 200)
    expect(checkIns.count).toBe(1)
  })
})

/**
 * Identity at a glance, in a real browser (Debian's Chromium with its fake camera, against the built
 * executable): a photo taken with the desk's camera shown on the customer page and on the next
 * scan's card, then removed; the age and the minor badge; search as staff type, by phone, with two
 * customers of one name told apart by photo, age, phone and status; an exact barcode opening the
 * customer at once; and the walk-in form typed from the keyboard, Tab after the birthday reaching
 * the email. Screenshots at the desk's and the tablet's size go to /tmp/belay-identity-shots.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, request, stopAll, type Server } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { textContrasts } from './contrast.ts'

const SHOTS = '/tmp/belay-identity-shots'
const DAY_MS = 86_400_000
const SCAN_LABEL = 'Scan a card or type a barcode, then Enter'
const SEARCH_LABEL = 'Name, email or barcode, or phone'
const DESK = { width: 1366, height: 768 }
const TABLET = { width: 1024, height: 768 }

let server: Server
let browser: Browser
let token: string
let api: DeskUnderTest['api']
const ids: Record<string, number> = {}

/** Today in Denver (the desk's gym), and an age's birthday from it: the badges read these ages. */
const denverToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Denver', dateStyle: 'short' }).format(new Date())
const bornYearsAgo = (years: number) => {
  const [y, m, d] = denverToday().split('-')
  // The first of the month before, so the age is whole whatever today is.
  return `${Number(y) - years}-${m}-01` <= `${Number(y) - years}-${m}-${d}`
    ? `${Number(y) - years}-${m}-01`
    : `${Number(y) - years - 1}-${m}-01`
}

async function customer(
  key: string,
  fields: Record<string, unknown>,
  options: { membershipId?: number; waiver?: boolean } = {},
) {
  const c = await api('POST', '/api/customers/', fields, 201)
  if (options.waiver !== false)
    await api('POST', `/api/customers/${c.id}/documents/`, { name: 'Waiver' }, 201)
  if (options.membershipId !== undefined) {
    const lastYear = new Date(Date.now() - 365 * DAY_MS).toISOString().slice(0, 10)
    await api(
      'POST',
      '/api/customer-memberships/',
      { membership_id: options.membershipId, owner_id: c.id, start_date: lastYear },
      201,
    )
  }
  ids[key] = c.id
}

beforeAll(async () => {
  ;({ server, browser, token, api } = await startDesk({
    email: 'desk@ruiz.example',
    password: 'correct-horse-battery-9',
    gym: 'Red River Gym',
  }))
  const monthly = await api(
    'POST',
    '/api/memberships/',
    { name: 'Monthly Unlimited', status: 'ACT', purchase_type: 'PRE' },
    201,
  )
  await customer(
    'pat',
    { first_name: 'Pat', last_name: 'Lens', birthday: bornYearsAgo(36), barcode: 'PL-1' },
    { membershipId: monthly.id },
  )
  await customer(
    'liamAdult',
    {
      first_name: 'Liam',
      last_name: 'Ruiz',
      birthday: bornYearsAgo(41),
      barcode: 'LR-1',
      email: 'liam@ruiz.example',
      telephone: '(303) 555-0101',
    },
    { membershipId: monthly.id },
  )
  await customer(
    'liamMinor',
    {
      first_name: 'Liam',
      last_name: 'Ruiz',
      birthday: bornYearsAgo(15),
      barcode: null,
      email: 'liam.jr@ruiz.example',
      telephone: '720-555-0199',
    },
    { waiver: false },
  )
  // Its barcode holds another's as its beginning: only the whole of it opens this customer.
  await customer('prefix', {
    first_name: 'Tess',
    last_name: 'Prefix',
    birthday: bornYearsAgo(30),
    barcode: 'PL-10',
  })
  mkdirSync(SHOTS, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

async function openDesk(size = DESK) {
  const page = await openLoggedIn({ browser, server }, token)
  await page.setViewportSize(size)
  await page.getByLabel(SCAN_LABEL).waitFor()
  return page
}

async function openCustomers(size = DESK) {
  const page = await openDesk(size)
  await page.getByRole('button', { name: 'Customers' }).click()
  // Typed keys go where the focus is: wait until the search has it (a busy machine can be slower
  // to give it than a test is to type).
  await page.locator(':focus').and(page.getByLabel(SEARCH_LABEL)).waitFor()
  return page
}

const shoot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` })

/** An image loaded from the box (its real pixels, not a broken link). */
async function loadedWidth(page: Page, alt: string): Promise<number> {
  const img = page.getByRole('img', { name: alt, exact: true })
  await img.waitFor()
  // Loaded, whole: its real pixels, not a broken link's (the tests are typed without the DOM's types).
  await page.waitForFunction(
    (name) =>
      [...(globalThis as any).document.querySelectorAll('img')].some(
        (i: any) => i.alt === name && i.complete,
      ),
    alt,
  )
  return img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)
}

/** Each row of a list of matches, as lines of text. */
async function rows(page: Page, selector: string): Promise<string[][]> {
  return (await page.locator(selector).allInnerTexts()).map((t) =>
    t
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  )
}

describe("the desk's camera", () => {
  test("a photo taken on the customer page shows there and on the next scan's card; removed, the initials", async () => {
    const page = await openCustomers()
    // As staff type, no Enter: the match shows after the pause.
    await page.keyboard.type('lens')
    await page.locator('.matches button.match', { hasText: 'Pat Lens' }).click()
    await page.getByRole('heading', { name: 'Pat Lens', level: 2 }).waitFor()
    await page.getByRole('img', { name: 'No photo of Pat Lens' }).waitFor()
    expect(await page.locator('.who-facts').innerText()).toBe('36\nNo phone')

    await page.getByRole('button', { name: 'Take photo' }).click()
    const dialog = page.getByRole('dialog', { name: 'Take a photo' })
    const take = dialog.getByRole('button', { name: 'Take photo' })
    await page.waitForFunction(() => (globalThis as any).document.querySelector('.camera')?.videoWidth > 0)
    await shoot(page, 'camera-1366')
    await take.click()
    await dialog.waitFor({ state: 'detached' })
    // The box keeps a 480 px square JPEG, served to the signed-in desk.
    expect(await loadedWidth(page, 'Photo of Pat Lens')).toBe(480)
    const served = await request(server.base, 'GET', `/api/customers/${ids.pat}/photo/`, { token })
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
    const unsigned = await fetch(`${server.base}/api/customers/${ids.pat}/photo/`)
    expect(unsigned.status).toBe(401)
    await shoot(page, 'customer-photo-1366')
    await page.setViewportSize(TABLET)
    await shoot(page, 'customer-photo-1024')
    await page.setViewportSize(DESK)

    // The next scan's card: the photo beside the verdict, and the age.
    await page.getByRole('button', { name: 'Check-in' }).click()
    await page.getByLabel(SCAN_LABEL).fill('PL-1')
    await page.keyboard.press('Enter')
    await page.locator('.card.ok').waitFor()
    expect(await loadedWidth(page, 'Photo of Pat Lens')).toBe(480)
    expect(await page.locator('.card .card-who').innerText()).toBe('36')
    await shoot(page, 'card-photo-1366')
    await page.setViewportSize(TABLET)
    await shoot(page, 'card-photo-1024')
    await page.setViewportSize(DESK)

    // Removed from the page: the initials again, and the box serves it no more.
    await page.getByRole('button', { name: 'Customers' }).click()
    await page.getByLabel(SEARCH_LABEL).fill('PL-1')
    await page.getByRole('heading', { name: 'Pat Lens', level: 2 }).waitFor()
    await page.getByRole('button', { name: 'Remove photo' }).click()
    await page.getByRole('img', { name: 'No photo of Pat Lens' }).waitFor()
    expect(await page.getByRole('button', { name: 'Remove photo' }).count()).toBe(0)
    const gone = await request(server.base, 'GET', `/api/customers/${ids.pat}/photo/`, { token })
    expect(gone.status).toBe(404)
  })
})

describe('finding people', () => {
  test('by phone as staff type: two of one name told apart by photo, age (the minor badge), phone and status', async () => {
    const page = await openCustomers()
    await page.keyboard.type('liam ruiz')
    await page.locator('.found', { hasText: '2 found.' }).waitFor()
    const both = await rows(page, '.matches li')
    expect(both.sort()).toEqual(
      [
        [
          'Liam Ruiz',
          '41',
          '(303) 555-0101 · liam@ruiz.example · LR-1',
          'Member',
          'Waiver signed',
          'Check in',
        ],
        [
          'Liam Ruiz',
          '15, minor',
          '720-555-0199 · liam.jr@ruiz.example · no card',
          'No membership',
          'No waiver',
          'Check in',
        ],
      ].sort(),
    )
    expect(await page.locator('.matches .photo.initials').count()).toBe(2)
    expect(await page.locator('.matches .age.minor').innerText()).toBe('15, minor')
    // Each part of a row meets WCAG AA contrast (4.5:1), the states and badges too.
    const ratios = await textContrasts(page.locator('.matches .summary-text span'))
    expect(ratios.length).toBeGreaterThanOrEqual(14)
    expect(ratios.filter((t) => t.ratio < 4.5)).toEqual([])
    await shoot(page, 'two-liams-1366')
    await page.setViewportSize(TABLET)
    await shoot(page, 'two-liams-1024')

    // By phone, as typed: the latest text's answer is the one shown.
    await page.getByLabel(SEARCH_LABEL).fill('')
    await page.keyboard.type('720 555')
    await page.locator('.found', { hasText: '1 found.' }).waitFor()
    expect((await rows(page, '.matches li'))[0]!.slice(0, 3)).toEqual([
      'Liam Ruiz',
      '15, minor',
      '720-555-0199 · liam.jr@ruiz.example · no card',
    ])
  })

  test("as staff type, the latest text's answer is the one shown, though an earlier one comes later", async () => {
    const page = await openCustomers()
    // The answer to "liam" is held back until the one to "liam 720" has been shown.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(
      (url) => url.pathname === '/api/customers/' && url.searchParams.get('search') === 'liam',
      async (route) => {
        await held
        await route.continue()
      },
    )
    await page.keyboard.type('liam')
    await page.waitForRequest((r) => new URL(r.url()).searchParams.get('search') === 'liam')
    await page.keyboard.type(' 720')
    await page.locator('.found', { hasText: '1 found.' }).waitFor()
    const late = page.waitForResponse((r) => new URL(r.url()).searchParams.get('search') === 'liam')
    release()
    await late
    // The frame after the late answer: still the latest text's.
    await page.evaluate(
      () => new Promise((resolve) => (globalThis as any).requestAnimationFrame(() => setTimeout(resolve))),
    )
    expect(await page.locator('.found').innerText()).toBe('1 found.')
    expect(await page.locator('.matches li').count()).toBe(1)
  })

  test("the check-in screen's search shows the same, and checks the minor's namesake in by a press", async () => {
    const page = await openDesk()
    await page.getByLabel('Forgot their card? Find by name or phone').click()
    await page.keyboard.type('555-0101')
    await page.locator('.search .found', { hasText: '1 found.' }).waitFor()
    expect(await rows(page, '.found-list li')).toEqual([
      [
        'Liam Ruiz',
        '41',
        '(303) 555-0101 · liam@ruiz.example · LR-1',
        'Member',
        'Waiver signed',
        'Check in Liam Ruiz',
      ],
    ])
    await page.getByRole('button', { name: 'Check in Liam Ruiz' }).click()
    await page.locator('.card.ok').waitFor()
    expect(await page.locator('.card .card-who').innerText()).toBe('41')
    expect(await page.locator('.card .photo.initials').getAttribute('aria-label')).toBe(
      'No photo of Liam Ruiz',
    )
  })

  test('an exact barcode typed in the search opens that customer at once; a part of one does not', async () => {
    const page = await openCustomers()
    await page.keyboard.type('PL-1')
    await page.getByRole('heading', { name: 'Pat Lens', level: 2 }).waitFor()
    await page.getByRole('button', { name: 'Back to the search' }).click()
    // Back at the search, it does not open them again by itself.
    await page.locator('.matches button.match').first().waitFor()
    expect(await page.getByRole('heading', { name: 'Pat Lens', level: 2 }).count()).toBe(0)

    await page.getByLabel(SEARCH_LABEL).fill('')
    await page.keyboard.type('PL-10')
    await page.getByRole('heading', { name: 'Tess Prefix', level: 2 }).waitFor()

    // "PL-" is no one's whole barcode: the matches show, nobody is opened.
    await page.getByRole('button', { name: 'Back to the search' }).click()
    await page.getByLabel(SEARCH_LABEL).fill('')
    await page.keyboard.type('PL-')
    await page.locator('.found', { hasText: '2 found.' }).waitFor()
    expect(await page.locator('h2').count()).toBe(0)
  })

  test('a refused card shows the minor badge', async () => {
    const page = await openDesk()
    await page.getByLabel('Forgot their card? Find by name or phone').click()
    await page.keyboard.type('720 555 0199')
    await page.getByRole('button', { name: 'Check in Liam Ruiz' }).click()
    await page.locator('.card.refused').waitFor()
    expect(await page.locator('.card .card-who').innerText()).toBe('15, minor')
    expect((await textContrasts(page.locator('.card .age'))).filter((t) => t.ratio < 4.5)).toEqual([])
    await shoot(page, 'card-minor-1366')
    await page.setViewportSize(TABLET)
    await shoot(page, 'card-minor-1024')
  })
})

test('the walk-in form from the keyboard: Tab after a complete birthday goes on to the email', async () => {
  const page = await openCustomers()
  await page.getByRole('button', { name: 'Sign up a walk-in' }).click()
  await page.getByLabel('First name').waitFor()
  await page.locator('input[name="first_name"]:focus').waitFor()
  await page.keyboard.type('Kai')
  await page.keyboard.press('Tab')
  await page.keyboard.type('Lightner')
  await page.keyboard.press('Tab')
  await page.keyboard.type('05011990')
  await page.keyboard.press('Tab')
  await page.keyboard.type('kai@example.com')
  expect(await page.getByLabel('Birthday').inputValue()).toBe('1990-05-01')
  expect(await page.getByLabel('Email (optional)').inputValue()).toBe('kai@example.com')
  await page.keyboard.press('Tab')
  await page.locator('input[name="barcode"]:focus').waitFor()
})

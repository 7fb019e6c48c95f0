/**
 * The desk of a box that is a site of a hub, in a real browser against the built executable and
 * Debian's nats-server: no banner while the hub is reachable, the banner once it is lost, and a
 * card a customer lost to another site's customer shown among their alerts. One browser and one box
 * for the file; the hub is stopped by the last test.
 */
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, request, stopAll, type Server } from '../e2e/helpers.ts'
import { startNatsServer, type NatsServer } from '../helpers/nats.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'

const GYM = 'Granite Arch'
const BANNER = '.hub-link-banner'

let hub: NatsServer
let server: Server
let browser: Browser
let token: string
let api: DeskUnderTest['api']

beforeAll(async () => {
  hub = await startNatsServer()
  ;({ server, browser, token, api } = await startDesk(
    { email: 'desk@granite.example', password: 'correct-horse-battery-9', gym: GYM },
    { args: ['--hub', hub.url, '--site', 'north'] },
  ))
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  await hub?.dispose()
  removeTempDirs()
})

/** The desk's first screen, loaded: the menu is there once the account and gyms are read. */
async function openDesk(): Promise<Page> {
  const page = await openLoggedIn({ browser, server }, token)
  await page.getByRole('button', { name: 'Customers' }).waitFor()
  return page
}

/** What /api/sites/link/ says now. */
const link = async () => (await request(server.base, 'GET', '/api/sites/link/', { token })).body

test('a card lost to another site’s customer is shown among the customer’s alerts', async () => {
  const kept = await api(
    'POST',
    '/api/customers/',
    { first_name: 'Alex', last_name: 'Honnold', birthday: '1985-08-17', barcode: 'AH-2002' },
    201,
  )
  const lost = await api(
    'POST',
    '/api/customers/',
    { first_name: 'Lynn', last_name: 'Hill', birthday: '1961-01-03' },
    201,
  )
  // As applying the stream records a conflict: in the box's own database, beside it.
  const db = new Database(server.db)
  try {
    // The box may be writing (its checkpointer, a catch-up): wait for its lock as it would.
    db.run('PRAGMA busy_timeout = 10000')
    db.run(
      `INSERT INTO sync_conflicts
         (detected_at, table_name, column_names, value, kept_row_key, lost_row_key, lost_site, resolution)
       VALUES (?, 'customers', '["barcode"]', 'AH-2002', ?, ?, 'south', 'cleared')`,
      ['2026-11-22T15:04:05.123Z', JSON.stringify([kept.id]), JSON.stringify([lost.id])],
    )
  } finally {
    db.close()
  }
  const page = await openDesk()
  // The page asks whether the box is cut off as it opens: seen answered, so no banner means none.
  const asked = page.waitForResponse((response) => response.url().endsWith('/api/sites/link/'))
  await page.reload()
  expect((await (await asked).json()).hub_reachable).toBe(true)
  await page.getByRole('button', { name: 'Customers' }).click()
  await page.getByLabel('Name, email or barcode, or phone').fill('Lynn')
  await page.keyboard.press('Enter')
  await page.locator('.matches button').first().click()
  await page.getByRole('heading', { name: 'Lynn Hill', level: 2 }).waitFor()
  expect(await page.locator('.alerts li').allInnerTexts()).toEqual([
    'Card AH-2002 was given to this customer at site south and to Alex Honnold at another site while the two were cut off from each other. It stays with Alex Honnold: give this customer a new card.',
  ])
  expect(await page.locator(BANNER).count()).toBe(0)
})

test('the banner shows once the hub is lost, saying since when; the desk keeps working', async () => {
  expect((await link()).hub_reachable).toBe(true)
  await hub.stop('SIGKILL')
  for (let tries = 0; (await link()).hub_reachable !== false; tries++) {
    if (tries > 100) throw new Error('the box never noticed the hub was gone')
    await Bun.sleep(100)
  }
  const page = await openDesk()
  await expect(page.locator(BANNER).innerText()).resolves.toMatch(
    /^Cut off from the other gyms since \d\d:\d\d\. This desk keeps working: its changes go to the other gyms when the link returns\.$/,
  )
  // A sign-up while cut off is answered as ever.
  await api(
    'POST',
    '/api/customers/',
    { first_name: 'Beth', last_name: 'Rodden', birthday: '1980-05-10' },
    201,
  )
})

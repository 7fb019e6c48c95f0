/**
 * The waiver screen in a real browser, on a 1024 x 768 tablet: a customer reads the current text,
 * answers, signs with the mouse, and the box stores a PDF that opens and names them; a minor's
 * guardian; a text that changes while it is read; and the desk's view of who signed.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { getToken, removeTempDirs, stopAll, type Server } from '../e2e/helpers.ts'
import { pdfText } from '../helpers/waiver-files.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { textContrasts } from './contrast.ts'
import { drawSignature } from './waiver-pad.ts'

const TEXT = [
  'Climbing is dangerous. Ropes break, holds spin, people fall.',
  ...Array.from(
    { length: 30 },
    (_, i) => `Rule ${i + 1}: look up, look down, and check your knot before you climb.`,
  ),
  'I accept these risks.',
].join('\n\n')

let server: Server
let browser: Browser
let api: DeskUnderTest['api']
let deskToken: string

beforeAll(async () => {
  let staffToken: DeskUnderTest['staffToken']
  ;({ server, browser, api, staffToken } = await startDesk({
    email: 'admin@slab.example',
    password: 'correct-horse-battery-9',
    gym: 'Slab City',
  }))
  await api('POST', '/api/waiver-texts/', { text: TEXT, valid_for_days: 365 }, 201)
  // The desk's own account: it manages members, and is no admin.
  deskToken = await staffToken('tablet@slab.example', 'tablet-horse-battery-9', ['can_manage_members'])
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

async function openWaiver(size = { width: 1024, height: 768 }): Promise<Page> {
  const page = await openLoggedIn({ browser, server }, deskToken)
  await page.setViewportSize(size)
  await page.getByRole('button', { name: 'Waiver', exact: true }).click()
  await page.getByLabel('First name').waitFor()
  return page
}

const signButton = (page: Page) => page.getByRole('button', { name: 'Sign', exact: true })

async function fillAdult(page: Page, first: string, last: string) {
  await page.getByLabel('First name').fill(first)
  await page.getByLabel('Last name').fill(last)
  await page.getByLabel('Birthday').fill('1988-02-14')
  await page.getByLabel('Phone').fill('555-0142')
  await page.getByLabel('Email (optional)').fill('margo@example.com')
}

/** The customers named `last`, with their documents, as the API has them. */
async function storedWaiver(last: string) {
  const found = await api('GET', `/api/customers/?search=${last}`, undefined, 200)
  expect(found.count).toBe(1)
  const customer = found.results[0]
  const documents = await api('GET', `/api/customers/${customer.id}/documents/`, undefined, 200)
  expect(documents.count).toBe(1)
  const document = documents.results[0]
  const res = await fetch(document.pdf, { headers: { authorization: `Token ${await adminToken()}` } })
  expect(res.headers.get('content-type')).toBe('application/pdf')
  return { customer, document, pdf: await pdfText(new Uint8Array(await res.arrayBuffer())) }
}

const adminToken = () => getToken(server.base, 'admin@slab.example', 'correct-horse-battery-9')

test('an adult signs on the tablet with the mouse: a PDF that opens and names them, and the form is blank for the next person', async () => {
  const page = await openWaiver()
  expect(await page.locator('.waiver-head').innerText()).toContain('Version 1')
  expect(await page.locator('.waiver-text').innerText()).toContain('Climbing is dangerous.')
  // Nothing is ticked for the customer, and Sign waits for everything required.
  expect(await page.getByRole('checkbox').isChecked()).toBe(false)
  expect(await signButton(page).isDisabled()).toBe(true)
  await fillAdult(page, 'Margo', 'Hayes')
  expect(await page.locator('.guardian').count()).toBe(0)
  await drawSignature(page)
  expect(await signButton(page).isDisabled()).toBe(true)
  await page.getByLabel('I have read the waiver and agree to it.').check()
  expect(await signButton(page).isDisabled()).toBe(false)
  // The whole form is in view on the tablet, Sign included, with touch-sized targets.
  const sign = (await signButton(page).boundingBox())!
  expect(sign.y + sign.height).toBeLessThanOrEqual(768)
  expect(sign.height).toBeGreaterThanOrEqual(44)
  await page.screenshot({ path: '/tmp/waiver-1024-filled.png' })
  await signButton(page).click()

  await page.getByRole('heading', { name: 'Thank you!' }).waitFor()
  expect(await page.locator('.thanks').innerText()).toContain('Your waiver is signed, Margo.')
  expect(await page.locator('.thanks').innerText()).toContain('New customer: Margo Hayes.')
  await page.screenshot({ path: '/tmp/waiver-1024-thanks.png' })

  const { customer, document, pdf } = await storedWaiver('Hayes')
  expect(customer).toMatchObject({
    first_name: 'Margo',
    birthday: '1988-02-14',
    telephone: '555-0142',
    active_waiver_exists: true,
  })
  expect(document).toMatchObject({ kind: 'waiver', name: 'Waiver (version 1)', is_expired: false })
  expect(pdf.title).toBe('Waiver version 1 signed by Margo Hayes')
  expect(pdf.text).toContain('Name: Margo Hayes')
  expect(pdf.text).toContain('Waiver text, version 1')
  expect(pdf.text).toContain('I accept these risks.')

  await page.getByRole('button', { name: 'Next person' }).click()
  await page.getByLabel('First name').waitFor()
  expect(await page.getByLabel('First name').inputValue()).toBe('')
  expect(await page.getByRole('checkbox').isChecked()).toBe(false)
  expect(await signButton(page).isDisabled()).toBe(true)
  expect(await page.locator('.last-signed').innerText()).toContain('Last signed: Margo Hayes (new customer)')
  await page.locator('.last-signed').getByRole('button', { name: 'Open customer' }).click()
  await page.getByRole('heading', { name: 'Margo Hayes', level: 2 }).waitFor()
})

test("a minor: the guardian's section shows, and Sign waits for the guardian's name", async () => {
  const page = await openWaiver()
  await page.getByLabel('First name').fill('Brooke')
  await page.getByLabel('Last name').fill('Raboutou')
  await page.getByLabel('Phone').fill('555-0177')
  await page.getByLabel('Birthday').fill('2015-06-01')
  await page.locator('.guardian').waitFor()
  await drawSignature(page)
  await page
    .getByLabel('I am their parent or guardian; I have read the waiver and agree to it for them.')
    .check()
  expect(await signButton(page).isDisabled()).toBe(true)
  await page.getByLabel("Parent or guardian's full name").fill('Robyn Raboutou')
  // With the guardian's section too, Sign is in view on the tablet.
  const sign = (await signButton(page).boundingBox())!
  expect(sign.y + sign.height).toBeLessThanOrEqual(768)
  await page.screenshot({ path: '/tmp/waiver-1024-minor.png' })
  await signButton(page).click()
  await page.getByRole('heading', { name: 'Thank you!' }).waitFor()
  expect(await page.locator('.thanks').innerText()).toContain('The waiver for Brooke Raboutou is signed.')
  const { pdf } = await storedWaiver('Raboutou')
  expect(pdf.text).toContain('Signed for the participant by their parent or guardian: Robyn Raboutou')
})

test('a blank box is no signature, and Clear empties the box', async () => {
  const page = await openWaiver()
  await fillAdult(page, 'Sasha', 'DiGiulian')
  await page.getByRole('checkbox').check()
  await drawSignature(page)
  expect(await signButton(page).isDisabled()).toBe(false)
  await page.getByRole('button', { name: 'Clear' }).click()
  expect(await signButton(page).isDisabled()).toBe(true)
})

test('the text changes while the customer reads it: the signing is refused and the new text shown', async () => {
  const page = await openWaiver()
  await fillAdult(page, 'Janja', 'Garnbret')
  await drawSignature(page)
  await page.getByRole('checkbox').check()
  await api('POST', '/api/waiver-texts/', { text: 'A new text, version 2.', valid_for_days: null }, 201)
  await signButton(page).click()
  await page.getByText('The waiver text has just changed: please read it again, then sign.').waitFor()
  await page.locator('.waiver-head', { hasText: 'Version 2' }).waitFor()
  expect(await page.locator('.waiver-text').innerText()).toBe('A new text, version 2.')
  // The answers stay; the agreement and the signature are asked for again.
  expect(await page.getByLabel('First name').inputValue()).toBe('Janja')
  expect(await page.getByRole('checkbox').isChecked()).toBe(false)
  expect(await signButton(page).isDisabled()).toBe(true)
  const found = await api('GET', '/api/customers/?search=Garnbret', undefined, 200)
  expect(found.count).toBe(0)
})

test('at 1366 x 768 the text and the form sit side by side, every text meeting WCAG AA', async () => {
  const page = await openWaiver({ width: 1366, height: 768 })
  await page.getByLabel('Birthday').fill('2016-01-01')
  await page.locator('.guardian').waitFor()
  await page.screenshot({ path: '/tmp/waiver-1366.png' })
  const reading = (await page.locator('.waiver-reading').boundingBox())!
  const signing = (await page.locator('.waiver-signing').boundingBox())!
  expect(signing.x).toBeGreaterThan(reading.x + reading.width - 1)
  const ratios = await textContrasts(page.locator('.waiver-screen :is(h2, span, label, legend, button, p)'))
  expect(ratios.length).toBeGreaterThan(10)
  expect(ratios.filter((t) => t.ratio < 4.5)).toEqual([])
})

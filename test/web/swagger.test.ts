/**
 * The API's docs page in a real browser against the built executable: under its content security
 * policy (only the box's own files and the page's one start-up script), Swagger UI still loads,
 * reads the document and lists the operations, with nothing refused; and a page of another origin
 * cannot show it, or the document, in a frame.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { removeTempDirs, startServer, stopAll, type Server } from '../e2e/helpers.ts'
import { launchChromium, newTab } from './browser.ts'

let server: Server
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchChromium()])
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

/** What the tab's console reports: errors, and every resource or frame the page's policy refuses. */
function consoleOf(page: Page): string[] {
  const reported: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || /content security policy/i.test(message.text()))
      reported.push(message.text())
  })
  page.on('pageerror', (error) => reported.push(String(error)))
  return reported
}

test('Swagger UI runs under the page policy and lists the API', async () => {
  const page = await newTab(browser)
  // The bundle is large: a busy machine takes a while to run it, and to draw an operation opened.
  page.setDefaultTimeout(45_000)
  const reported = consoleOf(page)
  const response = await page.goto(`${server.base}/swagger`)
  expect(response?.headers()['content-security-policy']).toStartWith(
    "default-src 'self'; script-src 'self' 'sha256-",
  )
  await page.locator('.swagger-ui .info .title').getByText('Belay API').waitFor()
  // Swagger UI draws a tag's operations as they scroll into view, and the conventions that open
  // the document fill the first screens: scroll down to the login.
  const getToken = page.locator('.opblock-post .opblock-summary-path[data-path="/api/get-token/"]')
  for (const deadline = Date.now() + 45_000; (await getToken.count()) === 0 && Date.now() < deadline;) {
    await page.mouse.wheel(0, 1000)
    await page.waitForTimeout(100)
  }
  await getToken.click()
  await page.locator('.opblock-body').first().waitFor()
  expect(reported).toEqual([])
}, 180_000)

test('a page of another origin cannot show the docs page or the document in a frame', async () => {
  const page = await newTab(browser)
  const reported = consoleOf(page)
  // Another origin on the same machine: a page of the test's own, on another port.
  const framingPage = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () =>
      new Response(
        `<iframe src="${server.base}/swagger"></iframe><iframe src="${server.base}/swagger/json"></iframe>`,
        { headers: { 'content-type': 'text/html' } },
      ),
  })
  const elsewhere = `http://127.0.0.1:${framingPage.port}/`
  await page.goto(elsewhere)
  const refusedFrames = () => reported.filter((text) => text.includes('frame-ancestors'))
  for (const deadline = Date.now() + 10_000; refusedFrames().length < 2 && Date.now() < deadline;)
    await page.waitForTimeout(100)
  expect(refusedFrames()).toHaveLength(2)
  // Each frame holds the browser's own error page instead.
  const frames = page.frames().filter((frame) => frame !== page.mainFrame())
  expect(frames.map((frame) => frame.url())).toEqual([
    'chrome-error://chromewebdata/',
    'chrome-error://chromewebdata/',
  ])
  framingPage.stop()
}, 30_000)

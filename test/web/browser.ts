import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium: the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium'

/**
 * Chromium headless through playwright-core (over a pipe, which works under bun test), in a fresh
 * temporary profile that playwright removes on close, with nothing that reaches the internet.
 * Fails, rather than skips, without Chromium.
 */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: the front desk's browser tests need Debian's chromium package (apt-get install -y --no-install-recommends chromium)`,
    )
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

import type { Page } from 'playwright-core'

/**
 * Signs in the waiver screen's box with the mouse: a pressed pointer drawn through a few strokes,
 * as a hand would (each move a pointer event the pad draws a line for).
 */
export async function drawSignature(page: Page): Promise<void> {
  const box = (await page.locator('.signature canvas').boundingBox())!
  const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const
  await page.mouse.move(...at(0.1, 0.7))
  await page.mouse.down()
  for (const [fx, fy] of [
    [0.2, 0.3],
    [0.3, 0.7],
    [0.4, 0.3],
    [0.5, 0.7],
    [0.6, 0.4],
    [0.8, 0.6],
  ] as const)
    await page.mouse.move(...at(fx, fy), { steps: 5 })
  await page.mouse.up()
}

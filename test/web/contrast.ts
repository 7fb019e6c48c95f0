import type { Locator } from 'playwright-core'

/** WCAG 2's relative luminance of an sRGB colour. */
function luminance([r, g, b]: number[]): number {
  const linear = (c: number) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!)
}

/** WCAG 2's contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: number[], b: number[]): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

const channels = (css: string) => css.match(/[\d.]+/g)!.map(Number)

/**
 * Each element's text colour and the background it is drawn on (its own, else the nearest
 * ancestor's that is not transparent, else the page's white), as the browser computed them.
 */
export async function textContrasts(elements: Locator): Promise<Array<{ text: string; ratio: number }>> {
  const pairs = await elements.evaluateAll((nodes) =>
    nodes.map((node) => {
      const view = node.ownerDocument.defaultView!
      const color = view.getComputedStyle(node).color
      let background = 'rgb(255, 255, 255)'
      for (let at: typeof node | null = node; at !== null; at = at.parentElement) {
        const own = view.getComputedStyle(at).backgroundColor
        if (own !== 'rgba(0, 0, 0, 0)' && own !== 'transparent') {
          background = own
          break
        }
      }
      return { text: (node as { innerText?: string }).innerText ?? '', color, background }
    }),
  )
  return pairs.map(({ text, color, background }) => ({
    text,
    ratio: Math.round(contrastRatio(channels(color), channels(background)) * 100) / 100,
  }))
}

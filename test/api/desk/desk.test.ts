import { describe, expect, test } from 'bun:test'
import { ORIGIN } from '../../helpers/app.ts'
import { useTestApp } from '../../helpers/seeded.ts'

/**
 * The front desk's page as the server hands it out: no token needed, the script and styles it names
 * served with their types, kept for good by the browser (their names change with their content),
 * the page itself asked for again on every load, all of it compressed when the browser takes gzip.
 */

const t = useTestApp({ once: true })

const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.handle(new Request(`${ORIGIN}${path}`, { headers }))

async function assetPaths(): Promise<{ script: string; styles: string }> {
  const page = await (await get('/')).text()
  const script = page.match(/<script type="module" src="(\/assets\/desk-[0-9a-z]+\.js)"><\/script>/)?.[1]
  const styles = page.match(/<link rel="stylesheet" href="(\/assets\/desk-[0-9a-z]+\.css)">/)?.[1]
  if (script === undefined || styles === undefined)
    throw new Error(`the page names no script or styles:\n${page}`)
  return { script, styles }
}

describe('GET /', () => {
  test('the page, without a token, never cached without asking, running only what the appliance serves', async () => {
    const res = await get('/')
    expect(res.status).toBe(200)
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
    })
    const page = await res.text()
    expect(page).toStartWith('<!doctype html>\n<html lang="en">')
    expect(page).toContain('<title>Belay front desk</title>')
    expect(page).toContain('<body><div id="app"></div></body>')
    await assetPaths()
  })

  test('gzip when the browser takes it, the same page once unpacked', async () => {
    const plain = await (await get('/')).text()
    const res = await get('/', { 'accept-encoding': 'gzip, deflate, br' })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toBe('accept-encoding')
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer())))).toBe(plain)
  })
})

describe('GET /assets/<name>', () => {
  test('the script and the styles, typed, cached for good, minified', async () => {
    const { script, styles } = await assetPaths()
    for (const [path, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [styles, 'text/css; charset=utf-8'],
    ] as const) {
      const res = await get(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(type)
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const text = await res.text()
      expect(text.length).toBeGreaterThan(0)
      // Minified: no line is indented as the sources are.
      expect(text).not.toMatch(/\n {2}/)
    }
  })

  test('script and styles stay under 200 KB compressed together, as the desk loads them', async () => {
    const { script, styles } = await assetPaths()
    let compressed = 0
    for (const path of [script, styles]) {
      const res = await get(path, { 'accept-encoding': 'gzip' })
      expect(res.headers.get('content-encoding')).toBe('gzip')
      compressed += (await res.arrayBuffer()).byteLength
    }
    expect(compressed).toBeLessThan(200 * 1024)
  })

  test('a name the page does not use: 404 with the API body', async () => {
    const res = await get('/assets/desk-0.js')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ detail: 'Not found.' })
  })
})

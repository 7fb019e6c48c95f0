import { Elysia } from 'elysia'
import { notFound } from '../errors.ts'
import { NO_SNIFF } from '../security-headers.ts'
import script from './browsable-page.js' with { type: 'text' }
import styles from './browsable-page.css' with { type: 'text' }

/** Where the page's script and stylesheet are served: beside the API, not in it. */
const ASSETS_PATH = '/api-assets'

/** A file's name carries its content's hash, so a browser may keep it for good. */
const named = (text: string, extension: string) => `browsable-${Bun.hash(text).toString(36)}${extension}`

const FOREVER = 'public, max-age=31536000, immutable'

const files = new Map<string, { text: string; type: string }>([
  [named(script, '.js'), { text: script, type: 'text/javascript; charset=utf-8' }],
  [named(styles, '.css'), { text: styles, type: 'text/css; charset=utf-8' }],
])

/** The paths the page links its script and stylesheet at. */
export const PAGE_ASSETS = {
  script: `${ASSETS_PATH}/${named(script, '.js')}`,
  styles: `${ASSETS_PATH}/${named(styles, '.css')}`,
}

/**
 * The page's two files, served without a token (the page is shown to a browser before it logs in)
 * and left out of the API's document, as the desk's and the docs page's assets are.
 */
export const assetRoutes = () =>
  new Elysia().get(
    `${ASSETS_PATH}/:name`,
    ({ params }) => {
      const file = files.get(params.name)
      if (file === undefined) throw notFound()
      return new Response(file.text, {
        headers: { ...NO_SNIFF, 'content-type': file.type, 'cache-control': FOREVER },
      })
    },
    { detail: { hide: true } },
  )

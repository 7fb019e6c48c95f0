import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { cutOffLine } from '../site-words.ts'
import type { SiteLink } from '../types.ts'
import './hub-link-banner.css'

/** How often a site's desk asks again whether it is cut off. */
const EVERY_MS = 30_000

/**
 * A banner while this box cannot reach the hub. It asks once as the desk opens; a box without a hub
 * says so and is never asked again, and a site is asked every EVERY_MS. A failed ask shows nothing.
 */
export function HubLinkBanner({ timeZone }: { timeZone?: string }) {
  const [link, setLink] = useState<SiteLink | null>(null)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const ask = () =>
      api<SiteLink>('GET', '/api/sites/link/').then(
        (answer) => {
          setLink(answer)
          if (answer.site !== null) timer = setTimeout(ask, EVERY_MS)
        },
        () => (timer = setTimeout(ask, EVERY_MS)),
      )
    void ask()
    return () => clearTimeout(timer)
  }, [])
  const line = link && cutOffLine(link, timeZone)
  return line ? (
    <p class="hub-link-banner" role="status">
      {line}
    </p>
  ) : null
}

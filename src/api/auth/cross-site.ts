import { Type as t } from '@sinclair/typebox'
import { ApiError } from '../../http/errors.ts'

/**
 * A login from another site's page. get-token takes form-encoded bodies, which a browser posts from
 * any site without asking the box first, so a page open at the desk could fail logins in a staff
 * member's name until the throttle locks them out. A browser says where such a request comes from;
 * clients that are not browsers (curl, integrations) send neither header and are not refused.
 */
export const crossSiteLoginRefused =
  "Logins from another site's page are refused: log in from this box's own page."

/** The 403's body, as the OpenAPI document gives it. */
export const CrossSiteLoginRefusal = t.Object({ detail: t.Literal(crossSiteLoginRefused) })

/**
 * Whether the browser that sent `request` says it comes from another site's page:
 * `Sec-Fetch-Site: cross-site`, or an `Origin` that is not the box's own (`null`, from a sandboxed
 * frame or a `data:` page, is nobody's). `Sec-Fetch-Site: same-site` is another origin of the same
 * registrable domain (another app on a sibling host name), so it passes only with the box's own
 * `Origin`. The box's own origin is the configured public URL, or the host the request was sent to
 * under either scheme: behind a proxy that ends TLS the page is `https://` while the box is reached
 * over `http://`, and a page on that host is the box's own whichever scheme served it.
 */
export function isCrossSiteRequest(request: Request, publicUrl: string | null): boolean {
  const fetchSite = request.headers.get('sec-fetch-site')
  if (fetchSite === 'cross-site') return true
  const origin = request.headers.get('origin')
  if (origin === null) return fetchSite === 'same-site'
  return !isOwnOrigin(origin, request, publicUrl)
}

function isOwnOrigin(origin: string, request: Request, publicUrl: string | null): boolean {
  let sent: URL
  try {
    sent = new URL(origin)
  } catch {
    return false
  }
  if (sent.protocol !== 'http:' && sent.protocol !== 'https:') return false
  if (publicUrl !== null && sent.origin === publicUrl) return true
  return sent.host === new URL(request.url).host
}

/** 403 before anything else, for a login that `isCrossSiteRequest` says comes from another site. */
export function refuseCrossSiteLogin(request: Request, publicUrl: string | null): void {
  if (isCrossSiteRequest(request, publicUrl)) throw new ApiError(403, { detail: crossSiteLoginRefused })
}

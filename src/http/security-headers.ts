/**
 * The headers that tell a browser how far to trust what the box sends, defined once: every answer
 * carries `NO_SNIFF`, and each HTML page the box serves (the front desk, the API's docs page) its
 * `pageSecurityHeaders`.
 */

/**
 * On every answer: a browser takes the content type as sent and never guesses script or HTML from
 * a body (a JSON answer echoing a customer's name, a PDF a customer uploaded).
 */
export const NO_SNIFF = { 'x-content-type-options': 'nosniff' } as const

/** What a page needs beyond the box's own files. */
export interface PagePolicy {
  /** The exact text of each inline `<script>` the page holds: allowed by its hash, nothing else inline. */
  inlineScripts?: readonly string[]
}

/** A CSP source allowing one inline script: its SHA-256, base64, as the CSP spells it. */
const scriptHash = (script: string) =>
  `'sha256-${new Bun.CryptoHasher('sha256').update(script).digest('base64')}'`

/**
 * An HTML page's headers: it loads script, styles, images and data only from the box (images also
 * as data: URLs), and no other site may show it in a frame, where a click could be stolen
 * (`frame-ancestors`, and X-Frame-Options for browsers that predate it).
 */
export function pageSecurityHeaders(policy: PagePolicy = {}): Record<string, string> {
  const scripts = (policy.inlineScripts ?? []).map(scriptHash)
  const directives = [
    "default-src 'self'",
    ...(scripts.length > 0 ? [`script-src 'self' ${scripts.join(' ')}`] : []),
    "img-src 'self' data:",
    "frame-ancestors 'none'",
  ]
  return { 'content-security-policy': directives.join('; '), 'x-frame-options': 'DENY' }
}

/**
 * An answer that is data, never a page (the API's document), even when opened in a tab: it loads
 * nothing and no site may frame it.
 */
export const NOT_A_PAGE = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
} as const

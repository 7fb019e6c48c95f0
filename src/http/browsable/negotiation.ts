/**
 * Which of the API's two renderings a GET asks for, as DRF's content negotiation picks between its
 * JSON and browsable API renderers: `?format=json` is JSON and `?format=api` the page whatever the
 * `Accept` header says; otherwise the page when `Accept` prefers `text/html` over
 * `application/json` (by q-value, then by which the client listed first). `*` alone, no `Accept`,
 * or any client that does not name `text/html` gets JSON: curl, libraries, the front desk's page.
 */

/** The page, or JSON chosen over it by an `Accept` that names text/html too. */
export type Rendering = 'page' | 'json'

/**
 * 'page' for `?format=api` or an `Accept` preferring text/html; 'json' for an `Accept` that names
 * text/html but prefers JSON (its answer varies by Accept); null for everything else, which the API
 * answers as it always does: `?format=json`, any other `format` (`csv`: the route's own business),
 * and every client that does not name text/html. For a JSON client this is two string searches:
 * the header is parsed only when it names text/html.
 */
export function renderingOf(request: Request): Rendering | null {
  const url = request.url
  if (url.includes('format=')) {
    const format = formatParam(url)
    // `json` and any other format the route itself serves (`csv`) are never the page.
    if (format !== null) return format === 'api' ? 'page' : null
  }
  const accept = request.headers.get('accept')
  if (accept === null || !accept.includes('text/html')) return null
  return prefersHtml(accept) ? 'page' : 'json'
}

/** The value of the query's `format` parameter; null when it has none. */
export function formatParam(url: string): string | null {
  const query = url.indexOf('?')
  if (query < 0) return null
  for (const pair of url.slice(query + 1).split('&')) {
    const eq = pair.indexOf('=')
    if (eq >= 0 && pair.slice(0, eq) === 'format') return pair.slice(eq + 1)
  }
  return null
}

interface Range {
  type: string
  subtype: string
  q: number
  /** Where the client listed it: earlier wins a tie in q. */
  position: number
}

function parseAccept(accept: string): Range[] {
  const ranges: Range[] = []
  accept.split(',').forEach((part, position) => {
    const [mediaRange, ...parameters] = part.split(';')
    const [type, subtype] = (mediaRange ?? '').trim().toLowerCase().split('/')
    if (!type || !subtype) return
    let q = 1
    for (const parameter of parameters) {
      const [name, value] = parameter.split('=').map((s) => s.trim())
      if (name?.toLowerCase() === 'q') {
        const parsed = Number(value)
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0
      }
    }
    ranges.push({ type, subtype, q, position })
  })
  return ranges
}

/** The most specific range matching `type/subtype` (RFC 9110 12.5.1), or null when none does. */
function bestMatch(ranges: Range[], type: string, subtype: string): Range | null {
  let best: Range | null = null
  let bestSpecificity = -1
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1
    if (specificity > bestSpecificity) {
      best = range
      bestSpecificity = specificity
    }
  }
  return best
}

/**
 * Whether `accept` prefers text/html to application/json: a higher q, or the same q from a range
 * listed earlier. Both matched by one range (`*` alone) is JSON, the API's own rendering.
 */
export function prefersHtml(accept: string): boolean {
  const ranges = parseAccept(accept)
  const html = bestMatch(ranges, 'text', 'html')
  if (html === null || html.q === 0) return false
  const json = bestMatch(ranges, 'application', 'json')
  if (json === null || json.q < html.q) return true
  return json.q === html.q && html.position < json.position
}

/** DRF's order of a view's methods (`http_method_names`), as its `Allow` header lists them. */
const ALLOW_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']

/**
 * The `Allow` header's methods for the methods a path is served with, in DRF's order: HEAD wherever
 * GET is (Bun answers it), OPTIONS on every path served (options-metadata.ts answers it).
 */
export function allowList(served: Iterable<string>): string[] {
  const methods = new Set([...served].map((m) => m.toUpperCase()))
  if (methods.size === 0) return []
  if (methods.has('GET')) methods.add('HEAD')
  methods.add('OPTIONS')
  return ALLOW_ORDER.filter((m) => methods.has(m))
}

/** What the index needs of a registered route: Elysia's own route table entries have it. */
export interface IndexedRoute {
  method: string
  path: string
  hooks?: { detail?: { security?: unknown[]; hide?: boolean } }
}

/**
 * Which methods a path is served with, whether it is served without a token, and which registered
 * route serves it, read from the app's own route table: an unmatched method on a known path answers
 * 405 (as DRF does) rather than 404, after authenticating unless the path is public; the request
 * metrics count by route, never by path.
 */
export class RouteIndex {
  private compiled: Array<{ pattern: RegExp; method: string; isPublic: boolean }> | null = null
  private tree: TemplateNode | null = null

  constructor(readonly routes: () => ReadonlyArray<IndexedRoute>) {}

  private matching(path: string) {
    this.compiled ??= this.routes().map((r) => ({
      method: r.method.toUpperCase(),
      pattern: toPattern(r.path),
      isPublic: declaresPublic(r),
    }))
    const withSlash = path.endsWith('/') ? path : `${path}/`
    return this.compiled.filter((r) => r.pattern.test(withSlash))
  }

  allowedMethods(path: string): string[] {
    return [...new Set(this.matching(path).map((r) => r.method))]
  }

  /**
   * The methods of the route whose template serves `path` (a static segment before a parameter, as
   * the router prefers it). A method that route does not offer may still have been taken by a
   * parameter route beside it: `PATCH /api/gyms/1/climbs/stats/` reaches `/:climb_id/`, whose id
   * "stats" names no record, though the path is the stats route's, which offers GET only.
   */
  methodsOfTemplate(path: string): string[] {
    const template = this.template(path)
    if (template === null) return []
    const key = template.endsWith('/') ? template : `${template}/`
    return [
      ...new Set(
        this.routes()
          .filter((r) => (r.path.endsWith('/') ? r.path : `${r.path}/`) === key)
          .map((r) => r.method.toUpperCase()),
      ),
    ]
  }

  /** Every route on the path is public: documented with no security requirement, or the docs page. */
  isPublic(path: string): boolean {
    const found = this.matching(path)
    return found.length > 0 && found.every((r) => r.isPublic)
  }

  /**
   * The registered path (`/api/customers/:id/`) that serves `path`, whatever the method; null when
   * none does. A walk down the paths' segments, a static segment before a parameter as the router
   * prefers it, so it costs a few Map lookups however many routes there are: the request metrics
   * ask it for every request.
   */
  template(path: string): string | null {
    this.tree ??= templateTree(this.routes())
    const segments = path.split('/')
    // '/api/gyms/' and '/api/gyms' are the same route: both end at the segment 'gyms'.
    const end = segments[segments.length - 1] === '' ? segments.length - 1 : segments.length
    return findTemplate(this.tree, segments, 1, end)
  }
}

interface TemplateNode {
  statics: Map<string, TemplateNode>
  param: TemplateNode | null
  template: string | null
}

const templateNode = (): TemplateNode => ({ statics: new Map(), param: null, template: null })

function templateTree(routes: ReadonlyArray<IndexedRoute>): TemplateNode {
  const root = templateNode()
  for (const { path } of routes) {
    let node = root
    for (const segment of path.split('/').slice(1)) {
      if (segment === '') continue
      if (segment.startsWith(':')) node = node.param ??= templateNode()
      else {
        let next = node.statics.get(segment)
        if (!next) node.statics.set(segment, (next = templateNode()))
        node = next
      }
    }
    node.template ??= path
  }
  return root
}

function findTemplate(node: TemplateNode, segments: string[], at: number, end: number): string | null {
  if (at === end) return node.template
  const segment = segments[at]!
  const fixed = node.statics.get(segment)
  const found = fixed ? findTemplate(fixed, segments, at + 1, end) : null
  if (found !== null || node.param === null || segment === '') return found
  return findTemplate(node.param, segments, at + 1, end)
}

/**
 * A route is public when its documentation says it needs no token (`docs({ public: true })`), or
 * when it is left out of the documentation: the docs page and its assets.
 */
const declaresPublic = (route: IndexedRoute) => {
  const detail = route.hooks?.detail
  return detail?.hide === true || (Array.isArray(detail?.security) && detail.security.length === 0)
}

function toPattern(path: string): RegExp {
  const withSlash = path.endsWith('/') ? path : `${path}/`
  const escaped = withSlash
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? '[^/]+'
        : segment === '*'
          ? '.*'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/')
  return new RegExp(`^${escaped}$`)
}

/** What the index needs of a registered route: Elysia's own route table entries have it. */
export interface IndexedRoute {
  method: string
  path: string
  hooks?: { detail?: { security?: unknown[]; hide?: boolean } }
}

/**
 * Which methods a path is served with, and whether it is served without a token, read from the
 * app's own route table: an unmatched method on a known path answers 405 (as DRF does) rather than
 * 404, after authenticating unless the path is public.
 */
export class RouteIndex {
  private compiled: Array<{ pattern: RegExp; method: string; isPublic: boolean }> | null = null

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

  /** Every route on the path is public: documented with no security requirement, or the docs page. */
  isPublic(path: string): boolean {
    const found = this.matching(path)
    return found.length > 0 && found.every((r) => r.isPublic)
  }
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

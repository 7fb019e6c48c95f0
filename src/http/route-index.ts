/**
 * Which methods a path is served with, read from the app's own route table, so an unmatched method
 * on a known path answers 405 (as DRF does) rather than 404.
 */
export class RouteIndex {
  private compiled: Array<{ pattern: RegExp; method: string }> | null = null

  constructor(private readonly routes: () => ReadonlyArray<{ method: string; path: string }>) {}

  allowedMethods(path: string): string[] {
    this.compiled ??= this.routes().map((r) => ({
      method: r.method.toUpperCase(),
      pattern: toPattern(r.path),
    }))
    const withSlash = path.endsWith('/') ? path : `${path}/`
    return [...new Set(this.compiled.filter((r) => r.pattern.test(withSlash)).map((r) => r.method))]
  }
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

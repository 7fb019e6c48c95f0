/**
 * The server `belay import` copies from: any server that speaks this API (another Belay box, or
 * Capitan), asked with `Authorization: Token TOKEN`. A failed request (no answer, a 5xx, a 429) is
 * asked again a few times with a growing wait; a 404 says the source does not offer the
 * collection; any other refusal ends the import with the source's own words.
 */

const RETRIES = 4
const FIRST_WAIT_MS = 250
const TIMEOUT_MS = 60_000

/** The import cannot go on: a one-line reason for the person running it. */
export class ImportError extends Error {}

export interface Page<T = Record<string, unknown>> {
  count: number
  next: string | null
  results: T[]
}

export type Answer<T> = { found: true; body: T } | { found: false }

export interface SourceOptions {
  /** the wait before the first retry, doubled at each (tests make it short) */
  firstWaitMs?: number
  fetch?: typeof fetch
}

export class Source {
  readonly base: string
  private readonly firstWaitMs: number
  private readonly fetcher: typeof fetch

  constructor(
    from: string,
    private readonly token: string,
    options: SourceOptions = {},
  ) {
    let url: URL
    try {
      url = new URL(from)
    } catch {
      throw new ImportError(`--from takes the source's address, such as https://gym.example.com, not ${from}`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ImportError(`--from takes an http or https address, not ${from}`)
    this.base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`
    this.firstWaitMs = options.firstWaitMs ?? FIRST_WAIT_MS
    this.fetcher = options.fetch ?? fetch
  }

  /**
   * A path on the source (`/api/gyms/`). A link the source gave (a page's `next`) names its own
   * host, which may be a public address this machine does not reach: only its path and query are
   * kept, asked of the address given with --from.
   */
  resolve(pathOrUrl: string): string {
    if (pathOrUrl.startsWith('/')) return `${this.base}${pathOrUrl}`
    const url = new URL(pathOrUrl)
    const basePath = new URL(this.base).pathname.replace(/\/+$/, '')
    const path =
      basePath && url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname
    return `${this.base}${path}${url.search}`
  }

  /** The JSON at a path or link, or not found (404). */
  async json<T>(pathOrUrl: string): Promise<Answer<T>> {
    const res = await this.request(pathOrUrl, 'application/json')
    if (res === null) return { found: false }
    const text = await res.text()
    try {
      return { found: true, body: JSON.parse(text) as T }
    } catch {
      throw new ImportError(`${this.resolve(pathOrUrl)} answered something that is not JSON`)
    }
  }

  /** A file (a document's PDF, a photo): its bytes and type, or not found (404). */
  async file(pathOrUrl: string): Promise<{ contentType: string; bytes: Uint8Array } | null> {
    const res = await this.request(pathOrUrl, '*/*')
    if (res === null) return null
    const contentType = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim()
    return { contentType, bytes: new Uint8Array(await res.arrayBuffer()) }
  }

  private async request(pathOrUrl: string, accept: string): Promise<Response | null> {
    const url = this.resolve(pathOrUrl)
    let why = ''
    for (let attempt = 0; attempt <= RETRIES; attempt++) {
      if (attempt > 0) await Bun.sleep(this.firstWaitMs * 2 ** (attempt - 1))
      let res: Response
      try {
        res = await this.fetcher(url, {
          headers: { accept, authorization: `Token ${this.token}` },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        })
      } catch (error) {
        why = error instanceof Error ? error.message : String(error)
        continue
      }
      if (res.status === 404) {
        await res.arrayBuffer().catch(() => {})
        return null
      }
      if (res.ok) return res
      const body = (await res.text().catch(() => '')).slice(0, 200)
      if (res.status >= 500 || res.status === 429) {
        why = `${res.status} ${body}`.trim()
        continue
      }
      if (res.status === 401)
        throw new ImportError(`the source refused the token (401) at ${url}: ${body}`.trim())
      if (res.status === 403)
        throw new ImportError(
          `the source refused ${url} (403): the token must be an organization admin's: ${body}`.trim(),
        )
      throw new ImportError(`the source answered ${res.status} at ${url}: ${body}`.trim())
    }
    throw new ImportError(`the source did not answer ${url} after ${RETRIES + 1} tries: ${why}`)
  }
}

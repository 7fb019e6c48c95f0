/**
 * Builds the absolute URLs the API returns. The origin is the configured public URL when there is
 * one (a box behind a reverse proxy), else the scheme and host the client used.
 */
export class Urls {
  constructor(readonly origin: string) {}

  static forRequest(request: Request, publicUrl: string | null): Urls {
    return new Urls(publicUrl ?? new URL(request.url).origin)
  }

  /**
   * A link the box stores as its own path (`/api/customers/3/photo/`), absolute for this request;
   * any other value (a client's URL, or "") as it is.
   */
  link(value: string): string {
    return value.startsWith('/') ? `${this.origin}${value}` : value
  }

  /** `abs('/api/gyms/', 3)` -> `http://host/api/gyms/3/`: path segments, always with the final slash. */
  abs(path: string, ...ids: Array<string | number>): string {
    const joined = [path.replace(/\/$/, ''), ...ids.map((i) => encodeURIComponent(String(i)))].join('/')
    return `${this.origin}${joined}/`
  }
}

import { PrometheusRegistry } from '../lib/prometheus.ts'
import type { RouteIndex } from './route-index.ts'

/**
 * Upper bounds of the request-duration buckets, in seconds: fine around the door's millisecond,
 * coarse up to the seconds a large report or a held login may take.
 */
export const REQUEST_DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
]

/** The route label of a request no registered route serves: its path is not a label. */
export const UNMATCHED_ROUTE = 'unmatched'

/** Methods counted by name; any other a client invents is counted as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** Called once a request is answered, with its path (no query string) and how long it took. */
export type RequestRecorder = (method: string, path: string, status: number, seconds: number) => void

/**
 * One app's metrics (created with its Deps, so tests do not share counts): the registry GET /metrics
 * writes out, and the request counts and durations kept as requests are answered. Labels come from
 * small fixed sets only: the route template, the method, the status.
 */
export class Monitoring {
  readonly registry = new PrometheusRegistry()
  private readonly requests = this.registry.counter(
    'belay_http_requests_total',
    'HTTP requests answered, by method, route template and status',
    ['method', 'route', 'status'],
  )
  private readonly requestDuration = this.registry.histogram(
    'belay_http_request_duration_seconds',
    'Time from receiving a request to its response, by method and route template',
    ['method', 'route'],
    REQUEST_DURATION_BUCKETS,
  )

  /** Records each request under the route of `routes` that serves its path. */
  requestRecorder(routes: RouteIndex): RequestRecorder {
    return (method, path, status, seconds) => {
      const methodLabel = METHODS.has(method) ? method : 'other'
      const route = routes.template(path) ?? UNMATCHED_ROUTE
      this.requests.inc([methodLabel, route, String(status)])
      this.requestDuration.observe([methodLabel, route], seconds)
    }
  }
}

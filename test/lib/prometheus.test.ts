import { describe, expect, test } from 'bun:test'
import { MAX_SERIES_PER_METRIC, PrometheusRegistry } from '../../src/lib/prometheus.ts'

describe('the text exposition format', () => {
  test('a counter: HELP and TYPE, then one line per label set in the order first seen', async () => {
    const registry = new PrometheusRegistry()
    const requests = registry.counter('app_requests_total', 'Requests answered', ['method', 'status'])
    requests.inc(['GET', '200'])
    requests.inc(['POST', '201'])
    requests.inc(['GET', '200'], 2)
    expect(await registry.render()).toBe(
      '# HELP app_requests_total Requests answered\n' +
        '# TYPE app_requests_total counter\n' +
        'app_requests_total{method="GET",status="200"} 3\n' +
        'app_requests_total{method="POST",status="201"} 1\n',
    )
  })

  test('label values escape backslash, double quote and line feed; HELP escapes backslash and line feed', async () => {
    const registry = new PrometheusRegistry()
    const seen = registry.counter('app_seen_total', 'Seen "as is"\\ or\nnot', ['value'])
    seen.inc(['a\\b "quoted"\nnext'])
    expect(await registry.render()).toBe(
      '# HELP app_seen_total Seen "as is"\\\\ or\\nnot\n' +
        '# TYPE app_seen_total counter\n' +
        'app_seen_total{value="a\\\\b \\"quoted\\"\\nnext"} 1\n',
    )
  })

  test('a histogram: cumulative buckets up to +Inf (equal to _count), then _sum and _count', async () => {
    const registry = new PrometheusRegistry()
    const duration = registry.histogram('app_duration_seconds', 'Durations', ['route'], [0.001, 0.01, 0.1])
    for (const seconds of [0.0005, 0.001, 0.002, 0.05, 3]) duration.observe(['/a/:id/'], seconds)
    duration.observe(['/b/'], 0.02)
    expect(await registry.render()).toBe(
      '# HELP app_duration_seconds Durations\n' +
        '# TYPE app_duration_seconds histogram\n' +
        // A value equal to a bound is in that bucket (le: less than or equal).
        'app_duration_seconds_bucket{route="/a/:id/",le="0.001"} 2\n' +
        'app_duration_seconds_bucket{route="/a/:id/",le="0.01"} 3\n' +
        'app_duration_seconds_bucket{route="/a/:id/",le="0.1"} 4\n' +
        'app_duration_seconds_bucket{route="/a/:id/",le="+Inf"} 5\n' +
        'app_duration_seconds_sum{route="/a/:id/"} 3.0535\n' +
        'app_duration_seconds_count{route="/a/:id/"} 5\n' +
        'app_duration_seconds_bucket{route="/b/",le="0.001"} 0\n' +
        'app_duration_seconds_bucket{route="/b/",le="0.01"} 0\n' +
        'app_duration_seconds_bucket{route="/b/",le="0.1"} 1\n' +
        'app_duration_seconds_bucket{route="/b/",le="+Inf"} 1\n' +
        'app_duration_seconds_sum{route="/b/"} 0.02\n' +
        'app_duration_seconds_count{route="/b/"} 1\n',
    )
  })

  test('a histogram without labels puts le alone in the braces', async () => {
    const registry = new PrometheusRegistry()
    registry.histogram('app_wait_seconds', 'Waits', [], [1]).observe([], 2)
    expect(await registry.render()).toBe(
      '# HELP app_wait_seconds Waits\n' +
        '# TYPE app_wait_seconds histogram\n' +
        'app_wait_seconds_bucket{le="1"} 0\n' +
        'app_wait_seconds_bucket{le="+Inf"} 1\n' +
        'app_wait_seconds_sum 2\n' +
        'app_wait_seconds_count 1\n',
    )
  })

  test('gauges are read at each render, with fixed labels; a null read leaves the sample out', async () => {
    const registry = new PrometheusRegistry()
    let depth = 3
    registry.gauge('app_queue_depth', 'Queued', () => depth)
    registry.gauge('app_free_bytes', 'Free', async () => null)
    registry.gauge('app_build_info', 'Version', () => 1, { version: '1.2.3' })
    const first = await registry.render()
    depth = 0
    expect([first, await registry.render()]).toEqual([
      '# HELP app_queue_depth Queued\n# TYPE app_queue_depth gauge\napp_queue_depth 3\n' +
        '# HELP app_free_bytes Free\n# TYPE app_free_bytes gauge\n' +
        '# HELP app_build_info Version\n# TYPE app_build_info gauge\napp_build_info{version="1.2.3"} 1\n',
      '# HELP app_queue_depth Queued\n# TYPE app_queue_depth gauge\napp_queue_depth 0\n' +
        '# HELP app_free_bytes Free\n# TYPE app_free_bytes gauge\n' +
        '# HELP app_build_info Version\n# TYPE app_build_info gauge\napp_build_info{version="1.2.3"} 1\n',
    ])
  })

  test('a metric keeps at most MAX_SERIES_PER_METRIC label sets; later new ones are not recorded', async () => {
    const registry = new PrometheusRegistry()
    const counter = registry.counter('app_ids_total', 'One series per id, a mistake', ['id'])
    for (let id = 0; id <= MAX_SERIES_PER_METRIC; id++) counter.inc([String(id)])
    counter.inc(['0'])
    const lines = (await registry.render()).split('\n').filter((line) => line.startsWith('app_ids_total'))
    expect(lines.length).toBe(MAX_SERIES_PER_METRIC)
    expect(lines[0]).toBe('app_ids_total{id="0"} 2')
    expect(lines.at(-1)).toBe(`app_ids_total{id="${MAX_SERIES_PER_METRIC - 1}"} 1`)
  })

  const refusals: Array<[string, (registry: PrometheusRegistry) => unknown, string]> = [
    [
      'a name used twice',
      (r) => (r.counter('a_total', 'A'), r.counter('a_total', 'A')),
      'metric a_total registered twice',
    ],
    ['an invalid metric name', (r) => r.counter('a-total', 'A'), 'invalid metric name a-total'],
    [
      'an invalid label name',
      (r) => r.counter('a_total', 'A', ['route-name']),
      'invalid label name route-name',
    ],
    ['le as a histogram label', (r) => r.histogram('a_seconds', 'A', ['le'], [1]), 'invalid label name le'],
    [
      'buckets out of order',
      (r) => r.histogram('a_seconds', 'A', [], [1, 0.5]),
      'a_seconds: buckets must be finite and increasing',
    ],
  ]
  for (const [name, register, message] of refusals) {
    test(`refuses ${name}`, () => {
      expect(() => register(new PrometheusRegistry())).toThrow(message)
    })
  }
})

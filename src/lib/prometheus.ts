/**
 * Counters, gauges and histograms in Prometheus's text exposition format (version 0.0.4): `# HELP`
 * and `# TYPE` before each metric, then one line per labelled series. Recording is a Map lookup and
 * a few additions, cheap enough for every request; the text is written only when it is scraped.
 */

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/**
 * Series one metric keeps at most. Label values must come from small fixed sets (a route template,
 * never a path; an outcome, never an id): this only stops a slip from growing memory without end.
 * A new label set past it is not recorded.
 */
export const MAX_SERIES_PER_METRIC = 2000

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/

/** A label value inside its double quotes: backslash, double quote and line feed escaped. */
export const escapeLabelValue = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

/** HELP text: backslash and line feed escaped (a double quote is left as it is there). */
const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')

/** A sample's value: integers as integers, infinities as `+Inf`/`-Inf`, as Prometheus reads them. */
export function formatValue(value: number): string {
  if (value === Infinity) return '+Inf'
  if (value === -Infinity) return '-Inf'
  return Number.isNaN(value) ? 'NaN' : String(value)
}

/** `{a="x",b="y"}`, or nothing without labels. */
function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return ''
  return `{${names.map((name, i) => `${name}="${escapeLabelValue(values[i] ?? '')}"`).join(',')}}`
}

const header = (name: string, help: string, type: string) =>
  `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`

interface Metric {
  render(): string | Promise<string>
}

/**
 * Series by their label values, each created on first use, at most MAX_SERIES_PER_METRIC. One Map
 * per label, nested: each lookup hashes a value that is usually the same string each time (a route
 * template, a method), where one joined key would be a new string to build and hash per request.
 */
class SeriesMap<S> {
  private readonly root = new Map<string, unknown>()
  /** Every series, in the order first seen: the order they are written in. */
  private readonly all: S[] = []

  constructor(
    private readonly labelNames: readonly string[],
    private readonly create: (labels: string) => S,
  ) {}

  get(values: readonly string[]): S | undefined {
    const full = this.all.length >= MAX_SERIES_PER_METRIC
    const last = values.length - 1
    let level = this.root
    for (let i = 0; i < last; i++) {
      let next = level.get(values[i]!) as Map<string, unknown> | undefined
      if (next === undefined) {
        if (full) return undefined
        level.set(values[i]!, (next = new Map()))
      }
      level = next
    }
    const key = last < 0 ? '' : values[last]!
    let found = level.get(key) as S | undefined
    if (found === undefined && !full) {
      found = this.create(labelText(this.labelNames, values))
      level.set(key, found)
      this.all.push(found)
    }
    return found
  }

  values(): readonly S[] {
    return this.all
  }
}

function checkLabelNames(names: readonly string[], reserved: readonly string[] = []) {
  for (const name of names) {
    if (!LABEL_NAME.test(name) || name.startsWith('__') || reserved.includes(name))
      throw new Error(`invalid label name ${name}`)
  }
}

/** A count that only goes up, per label set: given the label values in `labelNames`' order. */
export class Counter implements Metric {
  private readonly series: SeriesMap<{ labels: string; value: number }>

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {
    checkLabelNames(labelNames)
    this.series = new SeriesMap(labelNames, (labels) => ({ labels, value: 0 }))
  }

  inc(labelValues: readonly string[], by = 1): void {
    const series = this.series.get(labelValues)
    if (series) series.value += by
  }

  render(): string {
    let text = header(this.name, this.help, 'counter')
    for (const s of this.series.values()) text += `${this.name}${s.labels} ${formatValue(s.value)}\n`
    return text
  }
}

/**
 * Observations counted into buckets by upper bound, per label set. Each observation adds to one
 * bucket; the exposition's cumulative `_bucket{le=...}` counts, `+Inf` last (equal to `_count`), are
 * summed when scraped.
 */
export class Histogram implements Metric {
  private readonly series: SeriesMap<{ labels: string; counts: number[]; sum: number; count: number }>
  private readonly bucketLabels: string[]

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    checkLabelNames(labelNames, ['le'])
    if (
      buckets.length === 0 ||
      buckets.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= buckets[i - 1]!))
    )
      throw new Error(`${name}: buckets must be finite and increasing`)
    this.bucketLabels = [...buckets.map(formatValue), '+Inf']
    this.series = new SeriesMap(labelNames, (labels) => ({
      labels,
      counts: new Array<number>(buckets.length + 1).fill(0),
      sum: 0,
      count: 0,
    }))
  }

  observe(labelValues: readonly string[], value: number): void {
    const series = this.series.get(labelValues)
    if (!series) return
    let bucket = 0
    while (bucket < this.buckets.length && value > this.buckets[bucket]!) bucket++
    series.counts[bucket]!++
    series.sum += value
    series.count++
  }

  render(): string {
    let text = header(this.name, this.help, 'histogram')
    for (const s of this.series.values()) {
      // The series' own labels, then `le`: `{method="GET",le="0.1"}`, or `{le="0.1"}` alone.
      const before = s.labels === '' ? '{' : `${s.labels.slice(0, -1)},`
      let cumulative = 0
      for (let i = 0; i < s.counts.length; i++) {
        cumulative += s.counts[i]!
        text += `${this.name}_bucket${before}le="${this.bucketLabels[i]}"} ${cumulative}\n`
      }
      text += `${this.name}_sum${s.labels} ${formatValue(s.sum)}\n`
      text += `${this.name}_count${s.labels} ${s.count}\n`
    }
    return text
  }
}

/**
 * A value read when scraped (a queue's length, a file's size), with fixed labels. A read that gives
 * null leaves the sample out: the value is unknown there (no disk behind an in-memory database).
 */
class Gauge implements Metric {
  private readonly labels: string

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => number | null | Promise<number | null>,
    labels: Record<string, string>,
  ) {
    checkLabelNames(Object.keys(labels))
    this.labels = labelText(Object.keys(labels), Object.values(labels))
  }

  async render(): Promise<string> {
    const value = await this.read()
    const text = header(this.name, this.help, 'gauge')
    return value === null ? text : `${text}${this.name}${this.labels} ${formatValue(value)}\n`
  }
}

/** One application's metrics, written out in the order they were registered. */
export class PrometheusRegistry {
  private readonly metrics: Metric[] = []
  private readonly names = new Set<string>()

  private register<M extends Metric & { name: string }>(metric: M): M {
    if (!METRIC_NAME.test(metric.name)) throw new Error(`invalid metric name ${metric.name}`)
    if (this.names.has(metric.name)) throw new Error(`metric ${metric.name} registered twice`)
    this.names.add(metric.name)
    this.metrics.push(metric)
    return metric
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.register(new Counter(name, help, labelNames))
  }

  histogram(
    name: string,
    help: string,
    labelNames: readonly string[],
    buckets: readonly number[],
  ): Histogram {
    return this.register(new Histogram(name, help, labelNames, buckets))
  }

  /** A gauge whose value `read` gives at each scrape. */
  gauge(
    name: string,
    help: string,
    read: () => number | null | Promise<number | null>,
    labels: Record<string, string> = {},
  ): void {
    this.register(new Gauge(name, help, read, labels))
  }

  /** The exposition text of every metric. */
  async render(): Promise<string> {
    const parts = await Promise.all(this.metrics.map((metric) => metric.render()))
    return parts.join('')
  }
}

import { refuse } from './refusal.ts'

/**
 * Reads one metric's `filters` object, refusing the first bad value with where it is
 * (`metrics[2].filters.product_ids: ...`). Each metric type reads the keys it knows; `finish()`
 * then refuses any key no reader asked for, so a misspelt filter is an error rather than a series
 * that silently counts everything.
 */
export class FilterReader {
  private readonly read = new Set<string>()

  constructor(
    private readonly filters: Readonly<Record<string, unknown>>,
    /** The request path of the filters object, e.g. `metrics[2].filters`. */
    readonly path: string,
    /** The metric's type, for messages. */
    readonly type: string,
  ) {}

  /** The request path of one filter. */
  at(key: string): string {
    return `${this.path}.${key}`
  }

  /** Whether the request gave the key (null counts as not given). */
  has(key: string): boolean {
    return this.filters[key] !== undefined && this.filters[key] !== null
  }

  refuse(key: string, problem: string): never {
    refuse(this.at(key), problem)
  }

  private take(key: string): unknown {
    this.read.add(key)
    const value = this.filters[key]
    return value === null ? undefined : value
  }

  /** One of `allowed`, or `fallback` when not given. */
  choice<T extends string>(key: string, allowed: readonly T[], fallback: T): T
  choice<T extends string>(key: string, allowed: readonly T[]): T | undefined
  choice<T extends string>(key: string, allowed: readonly T[], fallback?: T): T | undefined {
    const value = this.take(key)
    if (value === undefined) return fallback
    if (typeof value !== 'string' || !allowed.includes(value as T))
      this.refuse(key, `must be one of ${allowed.join(', ')}`)
    return value as T
  }

  /** A choice the metric cannot do without. */
  requiredChoice<T extends string>(key: string, allowed: readonly T[]): T {
    const value = this.choice(key, allowed)
    if (value === undefined) this.refuse(key, `is required for ${this.type} (one of ${allowed.join(', ')})`)
    return value
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.take(key)
    if (value === undefined) return fallback
    if (typeof value !== 'boolean') this.refuse(key, 'must be true or false')
    return value
  }

  integer(key: string): number | undefined {
    const value = this.take(key)
    if (value === undefined) return undefined
    if (!Number.isSafeInteger(value) || (value as number) < 1) this.refuse(key, 'must be a positive integer')
    return value as number
  }

  /**
   * A list of values, each checked by `item` (which returns a problem, or null when it is fine).
   * Empty is refused unless `emptyMeansAll`, when it reads as not given.
   */
  private list<T>(
    key: string,
    item: (value: unknown) => string | null,
    emptyMeansAll: boolean,
  ): T[] | undefined {
    const value = this.take(key)
    if (value === undefined) return undefined
    if (!Array.isArray(value)) this.refuse(key, 'must be a list')
    if (value.length === 0) {
      if (emptyMeansAll) return undefined
      this.refuse(key, 'may not be an empty list')
    }
    for (const [i, entry] of value.entries()) {
      const problem = item(entry)
      if (problem !== null) refuse(`${this.at(key)}[${i}]`, problem)
    }
    return [...new Set(value)] as T[]
  }

  /** A non-empty list of record ids. */
  ids(key: string): number[] | undefined {
    return this.list<number>(
      key,
      (v) => (Number.isSafeInteger(v) && (v as number) >= 1 ? null : 'must be a positive integer'),
      false,
    )
  }

  /** A non-empty list of strings, each one of `allowed` when given. */
  strings<T extends string>(
    key: string,
    allowed?: readonly T[],
    options = { emptyMeansAll: false },
  ): T[] | undefined {
    return this.list<T>(
      key,
      (v) =>
        typeof v !== 'string' || v === ''
          ? 'must be a non-empty string'
          : allowed && !allowed.includes(v as T)
            ? `must be one of ${allowed.join(', ')}`
            : null,
      options.emptyMeansAll,
    )
  }

  /** A local time of day, `HH:MM` or `HH:MM:SS`, as HH:MM:SS. */
  timeOfDay(key: string): string | undefined {
    const value = this.take(key)
    if (value === undefined) return undefined
    const match = typeof value === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(value) : null
    if (!match) this.refuse(key, 'must be a time of day as HH:MM or HH:MM:SS')
    return `${match[1]}:${match[2]}:${match[3] ?? '00'}`
  }

  /** Refuses the first key the metric type did not read. */
  finish(): void {
    for (const key of Object.keys(this.filters))
      if (!this.read.has(key)) this.refuse(key, `is not a filter of ${this.type}`)
  }
}

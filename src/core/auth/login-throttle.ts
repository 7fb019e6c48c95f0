import type { Clock } from '../../lib/clock.ts'

/**
 * Failed logins per username: ten failures within 15 minutes block that
 * username until the oldest of those ten leaves the window. Kept in memory: a restart forgets it,
 * which only ever lets a legitimate user in sooner.
 */
export class LoginThrottle {
  private failures = new Map<string, number[]>()

  constructor(
    private readonly clock: Clock,
    readonly maxFailures = 10,
    readonly windowMs = 15 * 60 * 1000,
  ) {}

  private recent(username: string): number[] {
    const since = this.clock.now().getTime() - this.windowMs
    const kept = (this.failures.get(username) ?? []).filter((t) => t > since)
    if (kept.length === 0) this.failures.delete(username)
    else this.failures.set(username, kept)
    return kept
  }

  /** Seconds until `username` may try again, or 0 when it may try now. */
  retryAfterSeconds(username: string): number {
    const recent = this.recent(username.toLowerCase())
    if (recent.length < this.maxFailures) return 0
    const oldestCounted = recent[recent.length - this.maxFailures]!
    return Math.max(1, Math.ceil((oldestCounted + this.windowMs - this.clock.now().getTime()) / 1000))
  }

  recordFailure(username: string): void {
    const key = username.toLowerCase()
    this.failures.set(key, [...this.recent(key), this.clock.now().getTime()])
  }
}

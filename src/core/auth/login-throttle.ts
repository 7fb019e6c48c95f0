import type { Clock } from '../../lib/clock.ts'

/**
 * Failed logins per key (a username, or a client address): `maxFailures` within the window block
 * that key until the oldest of them leaves the window. Keys are compared in lower case. Kept in
 * memory: a restart forgets it, which only ever lets a legitimate user in sooner.
 */
export class LoginThrottle {
  private failures = new Map<string, number[]>()
  /** Keys nobody asks about again (random usernames) are dropped when the map reaches this size. */
  private sweepAt = 1024

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
    if (this.failures.size >= this.sweepAt) this.sweep()
  }

  private sweep(): void {
    const since = this.clock.now().getTime() - this.windowMs
    for (const [key, times] of this.failures) if (times[times.length - 1]! <= since) this.failures.delete(key)
    this.sweepAt = Math.max(1024, this.failures.size * 2)
  }

  /** Forgets every failure of `username`: an admin's remedy for a user locked out by others. */
  clear(username: string): void {
    this.failures.delete(username.toLowerCase())
  }
}

/**
 * Failures from one client address, whatever the usernames: more than one person's worth of typos
 * (a front desk shared by several staff), few enough that guessing with a new username each time
 * stops after a few seconds of verification work.
 */
export const ADDRESS_MAX_FAILURES = 20

export const newAddressThrottle = (clock: Clock) => new LoginThrottle(clock, ADDRESS_MAX_FAILURES)

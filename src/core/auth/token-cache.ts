import type { StaffUser } from '../../db/schema.ts'

interface Entry {
  /** Frozen: every request holding this token gets the same object. */
  user: StaffUser
  /** The token's `expires_at` in ms since the epoch; null for a token that never expires. */
  expiresAtMs: number | null
  /** When the row was read (clock ms, taken before the query started). */
  readAtMs: number
}

/**
 * The staff user behind each recently seen valid token, keyed by the token's hash, so that
 * authenticating a request (every API call, every door scan at the rush) is a Map look-up
 * instead of a query through Kysely.
 *
 * What keeps an answer from going stale:
 * - Only tokens found valid are remembered: an unknown key always asks the database, so a token
 *   issued a moment ago works at once and a flood of made-up keys cannot grow the map.
 * - Every write this process makes to `staff_users` or `auth_tokens` calls `clear()` right after
 *   it (api/users/rules.ts, api/my-account/rules.ts, authentication.ts; test/core/auth/token-cache.test.ts
 *   fails when a new writer appears). Writes to those tables are rare, so dropping everything is
 *   cheaper to get right than working out which entries a change touches.
 * - A read that started before a `clear()` is not remembered after it (`generation`): a request
 *   whose query was already running when a user was deactivated cannot put the old row back.
 * - The token's expiry is checked against the clock on every hit.
 * - An entry is trusted for `maxAgeMs` only. Another process may change the same database file
 *   (`belay create-admin`, or someone with the sqlite3 shell deactivating a user) and this process
 *   cannot see that happen; the age cap bounds how long such a change goes unnoticed. A few seconds
 *   costs one query per token per few seconds, nothing at door rates.
 *
 * Bounded at `maxEntries`: past it the oldest-stored entry goes. Stored order is close to
 * least-recently-used here because every entry is re-read (and stored again) each `maxAgeMs`, and
 * the oldest-stored is the one closest to being dropped anyway; a hit therefore does not reorder
 * the map, which keeps it a single `Map.get`.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>()
  private clears = 0

  constructor(
    readonly maxEntries = 1_000,
    readonly maxAgeMs = 5_000,
  ) {}

  /** Changes on every `clear()`; take it before reading a token's row, give it back to `remember`. */
  get generation(): number {
    return this.clears
  }

  get size(): number {
    return this.entries.size
  }

  /**
   * The user behind a token hash seen valid less than `maxAgeMs` ago and not expired at `nowMs`;
   * undefined means ask the database (unknown, too old, expired, or the clock went backwards).
   */
  lookUp(keyHash: string, nowMs: number): StaffUser | undefined {
    const entry = this.entries.get(keyHash)
    if (entry === undefined) return undefined
    const age = nowMs - entry.readAtMs
    if (age >= this.maxAgeMs || age < 0 || (entry.expiresAtMs !== null && entry.expiresAtMs <= nowMs)) {
      this.entries.delete(keyHash)
      return undefined
    }
    return entry.user
  }

  /**
   * Remembers a token found valid by a read that began at `readAtMs`, when `generation` was
   * current; a `clear()` since then means the row read may already be out of date, so it is dropped.
   */
  remember(
    keyHash: string,
    user: StaffUser,
    expiresAtMs: number | null,
    readAtMs: number,
    generation: number,
  ): void {
    if (generation !== this.clears) return
    this.entries.delete(keyHash)
    this.entries.set(keyHash, { user, expiresAtMs, readAtMs })
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string
      this.entries.delete(oldest)
    }
  }

  /** Forgets every token: call after any write to `staff_users` or `auth_tokens`. */
  clear(): void {
    this.entries.clear()
    this.clears += 1
  }
}

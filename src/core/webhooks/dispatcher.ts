import type { Database as BunDatabase } from 'bun:sqlite'
import type { Db } from '../../db/connection.ts'
import { groupCommitFor } from '../../db/group-commit.ts'
import { storageFailureOf } from '../../db/storage-failure.ts'
import { syncTransaction } from '../../db/sync-transaction.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'
import { sendWebhook, type AttemptResult } from './delivery.ts'
import {
  getWebhookEventState,
  insertWebhookDelivery,
  listDueWebhookEvents,
  recordWebhookEventAttempt,
  type DueWebhookEvent,
} from './queries.ts'
import { deliveryHeaders } from './signature.ts'
import { onOutboxWork } from './wake.ts'

/**
 * The webhook dispatcher: a worker beside the server that sends the outbox's due events. Sending
 * happens outside any database transaction (a slow receiver must never hold SQLite's one writer);
 * each attempt is then recorded in one short transaction through the connection's group commit
 * (db/group-commit.ts), sharing a commit with the door's check-ins, so recording never waits for
 * the disk on the server's thread (a commit and fsync of its own per attempt stalled the door
 * while a backlog drained). Everything it needs to resume is stored (status, attempts,
 * next_attempt_at), so after a restart or a crash it carries on where it was: an event in the
 * middle of a backoff waits for its stored time, and one that was being sent when the process died
 * is sent again (receivers de-duplicate on webhook-id).
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** Waits after failed attempts 1..7; the 8th failure is final. About a day in all. */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1
export const DELIVERY_TIMEOUT_MS = 15 * SECOND
export const POLL_INTERVAL_MS = 250
/** Receivers sent to at once; each webhook has at most one request in flight (its order). */
export const MAX_CONCURRENT_DELIVERIES = 16
/** How often an attempt the disk would not record is tried again (recorded, not sent again). */
export const RECORD_RETRY_MS = 1000

/** setTimeout/clearTimeout, injectable so tests can run the loop on their own schedule. */
export interface Timer {
  set(callback: () => void, ms: number): unknown
  clear(handle: unknown): void
}

export const systemTimer: Timer = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export interface DispatcherOptions {
  db: Db
  /**
   * The same connection's raw handle: enqueueing on it wakes this dispatcher at once, events are
   * sent only once its group commit has made them durable, and attempts are recorded through it.
   */
  sqlite: BunDatabase
  clock: Clock
  log: Logger
  timer?: Timer
  pollIntervalMs?: number
  timeoutMs?: number
  maxConcurrent?: number
  retryDelaysMs?: readonly number[]
  recordRetryMs?: number
}

/** What an event becomes after attempt number `attempt` (1-based) ended with `result`. */
export function afterAttempt(
  attempt: number,
  result: Pick<AttemptResult, 'delivered'>,
  now: Date,
  retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
): { status: 'delivered' | 'failed' | 'pending'; delivered_at?: string; next_attempt_at?: string } {
  if (result.delivered) return { status: 'delivered', delivered_at: now.toISOString() }
  const delay = retryDelaysMs[attempt - 1]
  if (delay === undefined) return { status: 'failed' }
  return { status: 'pending', next_attempt_at: new Date(now.getTime() + delay).toISOString() }
}

export class WebhookDispatcher {
  private readonly timer: Timer
  private readonly pollIntervalMs: number
  private readonly timeoutMs: number
  private readonly maxConcurrent: number
  private readonly retryDelaysMs: readonly number[]
  private readonly recordRetryMs: number
  /** webhook id -> its delivery in flight */
  private readonly inFlight = new Map<number, Promise<void>>()
  private stopController = new AbortController()
  private running = false
  private pollHandle: unknown = null
  private polling = false
  private pollAgain = false
  private unsubscribe: (() => void) | null = null

  constructor(private readonly options: DispatcherOptions) {
    this.timer = options.timer ?? systemTimer
    this.pollIntervalMs = options.pollIntervalMs ?? POLL_INTERVAL_MS
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS
    this.maxConcurrent = options.maxConcurrent ?? MAX_CONCURRENT_DELIVERIES
    this.retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS
    this.recordRetryMs = options.recordRetryMs ?? RECORD_RETRY_MS
  }

  /** Polls the outbox from now on (and whenever an enqueue on `sqlite` says there is work). */
  start(): void {
    if (this.running) return
    this.running = true
    this.stopController = new AbortController()
    this.unsubscribe = onOutboxWork(this.options.sqlite, () => this.schedule(0))
    this.schedule(0)
  }

  /**
   * Stops polling and abandons the requests in flight (they stay pending and are sent again after
   * the next start), then waits for them to let go, so the database can be closed after this.
   */
  async stop(): Promise<void> {
    this.running = false
    this.unsubscribe?.()
    this.unsubscribe = null
    if (this.pollHandle !== null) this.timer.clear(this.pollHandle)
    this.pollHandle = null
    this.stopController.abort()
    while (this.polling || this.inFlight.size > 0) {
      await Promise.allSettled([...this.inFlight.values()])
      if (this.polling) await new Promise((resolve) => setTimeout(resolve, 1))
    }
  }

  /**
   * One pass, for tests and tools: sends every due event that may go now and waits for those
   * attempts to be recorded. Returns how many attempts it made.
   */
  async runDue(): Promise<number> {
    const launched = await this.launchDue()
    await Promise.allSettled(launched)
    return launched.length
  }

  /** Resolves once no attempt is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()])
  }

  private schedule(ms: number): void {
    if (!this.running) return
    if (this.pollHandle !== null) this.timer.clear(this.pollHandle)
    this.pollHandle = this.timer.set(() => {
      this.pollHandle = null
      void this.poll()
    }, ms)
  }

  private async poll(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true
      return
    }
    this.polling = true
    try {
      await this.launchDue()
    } catch (error) {
      this.options.log.error('webhook dispatcher: reading the outbox failed', { error: describe(error) })
    } finally {
      this.polling = false
    }
    const again = this.pollAgain
    this.pollAgain = false
    this.schedule(again ? 0 : this.pollIntervalMs)
  }

  /** Starts an attempt for each due head whose webhook has none in flight; returns them. */
  private async launchDue(): Promise<Promise<void>[]> {
    const { db, sqlite } = this.options
    const due = await listDueWebhookEvents(db, this.options.clock.now().toISOString())
    // A door's check-in is visible here a moment before its WAL sync returns (group-commit.ts).
    if (due.length > 0) await groupCommitFor(db, sqlite).whenCommittedIsDurable()
    const launched: Promise<void>[] = []
    for (const event of due) {
      if (this.inFlight.size >= this.maxConcurrent) break
      if (this.inFlight.has(event.webhook_id) || this.stopController.signal.aborted) continue
      const attempt = this.attempt(event).finally(() => {
        this.inFlight.delete(event.webhook_id)
        // The webhook's next event (or a waiting webhook) may go now, not at the next poll.
        this.schedule(0)
      })
      this.inFlight.set(event.webhook_id, attempt)
      launched.push(attempt)
    }
    return launched
  }

  private async attempt(event: DueWebhookEvent): Promise<void> {
    const { clock, log } = this.options
    const attemptedAt = clock.now()
    const headers = deliveryHeaders(
      event.id,
      event.secret,
      Math.floor(attemptedAt.getTime() / 1000),
      event.body,
    )
    const result = await sendWebhook(event.webhook_url, event.body, headers, {
      timeoutMs: this.timeoutMs,
      stopSignal: this.stopController.signal,
    })
    if (result === null) return
    try {
      await this.recordWhenStored(event, attemptedAt, result)
    } catch (error) {
      // Not recorded: the event stays pending and due, so it is simply sent again.
      log.error('webhook dispatcher: recording an attempt failed', {
        webhook_event_id: event.id,
        error: describe(error),
      })
    }
  }

  /**
   * Records the attempt, waiting out a disk that will not take it (full or failing): the receiver
   * has its answer, and sending the event again on every poll until the disk is freed would deliver
   * it over and over. The webhook's later events wait behind it meanwhile, keeping their order. If
   * the dispatcher stops first, the event stays pending and is sent again after the next start.
   */
  private async recordWhenStored(event: DueWebhookEvent, attemptedAt: Date, result: AttemptResult) {
    const signal = this.stopController.signal
    for (let failures = 0; ; failures++) {
      try {
        return await this.record(event, attemptedAt, result)
      } catch (error) {
        if (storageFailureOf(error) === undefined || signal.aborted) throw error
        if (failures === 0) {
          this.options.log.error('webhook dispatcher: the disk would not record an attempt; trying again', {
            webhook_event_id: event.id,
            error: describe(error),
          })
        }
        await new Promise<void>((resolve) => {
          const handle = this.timer.set(resolve, this.recordRetryMs)
          signal.addEventListener('abort', () => (this.timer.clear(handle), resolve()), { once: true })
        })
      }
    }
  }

  private async record(event: DueWebhookEvent, attemptedAt: Date, result: AttemptResult): Promise<void> {
    const { clock, log, sqlite } = this.options
    const outcome = await syncTransaction(this.options, () => {
      const current = getWebhookEventState(sqlite, event.id)
      // Deleted with its webhook while in flight: nothing to record against.
      if (current === undefined) return null
      const attempt = current.attempts + 1
      insertWebhookDelivery(sqlite, {
        webhook_event_id: event.id,
        attempt,
        attempted_at: attemptedAt.toISOString(),
        status_code: result.statusCode,
        error: result.error,
        duration_ms: result.durationMs,
        response_body: result.responseBody,
      })
      const next = afterAttempt(attempt, result, clock.now(), this.retryDelaysMs)
      recordWebhookEventAttempt(sqlite, event.id, { attempts: attempt, ...next })
      return { attempt, status: next.status }
    })
    if (outcome?.status === 'failed') {
      log.warn('webhook event not delivered after the last attempt', {
        webhook_id: event.webhook_id,
        webhook_event_id: event.id,
        attempts: outcome.attempt,
        error: result.error,
      })
    }
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The worker `belay serve` runs beside the API. */
export function startWebhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const dispatcher = new WebhookDispatcher(options)
  dispatcher.start()
  return dispatcher
}

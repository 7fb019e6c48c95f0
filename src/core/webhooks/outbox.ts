import type { Database as BunDatabase } from 'bun:sqlite'
import type { EntryMethod } from '../../db/schema.ts'
import { prepared } from '../../db/statements.ts'
import { localDateTimeWithOffset } from '../../lib/local-time.ts'
import { notifyOutbox } from './wake.ts'

/**
 * The webhook outbox. The check-in transaction calls `enqueueCheckInEvent` before it commits, so the
 * event rows commit (or roll back) with the check-in: a check-in that is committed is delivered,
 * across restarts and power cuts. Each row holds the exact body every attempt sends.
 */

/** What the check-in transaction knows; the event object is built from it here. */
export interface CheckInEventData {
  /** the check-in's id */
  id: number
  customer_id: number
  customer_first_name: string
  customer_last_name: string
  customer_birthday: string | null
  customer_email: string | null
  /** the check-in instant, UTC ISO (its created_at) */
  checked_in_at: string
  /** the location's IANA zone: check_in_datetime is its wall-clock time with the offset */
  time_zone: string
  entry_method: EntryMethod
  entry_method_description: string
  location_id: number
  location_name: string
  check_in_count: number | null
}

/** The `event` object of a check_in body, in the order the API documents its fields. */
export function checkInEvent(data: CheckInEventData) {
  return {
    id: data.id,
    customer_id: data.customer_id,
    customer_first_name: data.customer_first_name,
    customer_last_name: data.customer_last_name,
    customer_birthday: data.customer_birthday,
    customer_email: data.customer_email,
    // "2026-11-22T08:15:00-07:00", from the wall clock's offset cache (per zone and minute): it
    // is written inside the door's transaction.
    check_in_datetime: localDateTimeWithOffset(data.checked_in_at, data.time_zone),
    entry_method: data.entry_method,
    entry_method_description: data.entry_method_description,
    location_id: data.location_id,
    location_name: data.location_name,
    check_in_count: data.check_in_count,
  }
}

/** The whole body, byte for byte what the receiver gets; the key order is the documented one. */
export const webhookBody = (webhookEventId: number, eventType: string, secret: string, eventJson: string) =>
  `{"webhook_event_id":${webhookEventId},"event_type":${JSON.stringify(eventType)},"secret":${JSON.stringify(secret)},"event":${eventJson}}`

interface Target {
  id: number
  secret: string
}

/**
 * One pending `check_in` row per webhook of that type, due at `nowIso`. Synchronous on the raw
 * connection and inside the caller's transaction: it neither begins nor commits one. With no
 * webhook configured it costs one read (its statements come from the connection's cache).
 */
export function enqueueCheckInEvent(sqlite: BunDatabase, event: CheckInEventData, nowIso: string): void {
  // No ORDER BY in SQL: see the note on the door's reads in core/door/queries.ts.
  const targets = prepared<Target, [string]>(sqlite, 'SELECT id, secret FROM webhooks WHERE event_type = ?')
    .all('check_in')
    .sort((a, b) => a.id - b.id)
  if (targets.length === 0) return
  const eventJson = JSON.stringify(checkInEvent(event))
  // The body names its own row id, which exists only once the row does: insert, then fill it in.
  // (`run().lastInsertRowid` rather than RETURNING: measurably cheaper in bun:sqlite.)
  const insert = prepared<never, [number, string, string]>(
    sqlite,
    `INSERT INTO webhook_events (webhook_id, event_type, body, status, attempts, next_attempt_at, created_at)
     VALUES (?, 'check_in', '', 'pending', 0, ?, ?)`,
  )
  const setBody = prepared<never, [string, number]>(sqlite, 'UPDATE webhook_events SET body = ? WHERE id = ?')
  for (const target of targets) {
    const id = Number(insert.run(target.id, nowIso, nowIso).lastInsertRowid)
    setBody.run(webhookBody(id, 'check_in', target.secret, eventJson), id)
  }
  notifyOutbox(sqlite)
}

import { localDate } from '../../lib/local-time.ts'
import { type Collection, cents, each, flag, put, stamps, storedAnswers } from './writing.ts'

/** Events, their reservations and waitlists. */
export const EVENTS: Collection[] = [
  {
    name: 'events',
    path: '/api/events/',
    write: each(async (trx, r, _parent, context) => {
      // The day a schedule made the event for is not in the API: its local day at the gym.
      const zone = context.gymZones.get(r.gym_id) ?? 'UTC'
      return put(trx, 'events', {
        id: r.id,
        event_type_id: r.event_type_id,
        gym_id: r.gym_id,
        name: r.name ?? '',
        start_at: r.start_at,
        end_at: r.end_at,
        includes_entry: flag(r.includes_entry),
        is_cancelled: flag(r.is_cancelled),
        capacity: r.capacity ?? null,
        schedule_id: r.schedule_id ?? null,
        schedule_date: r.schedule_id == null ? null : localDate(new Date(r.start_at), zone),
        price_cents: cents(r.price),
        tax_rate_id: r.tax_rate_id ?? null,
        revenue_account_code: r.revenue_account_code ?? '',
        ...stamps(r),
      })
    }),
  },
  {
    name: 'reservations',
    path: '/api/reservations/',
    write: each(async (trx, r) =>
      put(trx, 'reservations', {
        id: r.id,
        event_id: r.event_id,
        customer_id: r.customer_id,
        includes_entry: flag(r.includes_entry),
        is_cancelled: flag(r.is_cancelled),
        checked_in: flag(r.checked_in),
        answers: storedAnswers(r.answers),
        event_voucher_id: r.event_voucher_id ?? null,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'waitlist entries',
    path: '/api/waitlist-entries/',
    write: each(async (trx, r) =>
      put(trx, 'waitlist_entries', {
        id: r.id,
        event_id: r.event_id,
        customer_id: r.customer_id,
        answers: storedAnswers(r.answers),
        // EXP is read from a waiting entry whose event has begun: stored, it is still waiting.
        status: r.status === 'EXP' ? 'WAI' : r.status,
        reservation_id: r.reservation_id ?? null,
        ...stamps(r),
      }),
    ),
  },
]

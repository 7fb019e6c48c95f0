import { type Collection, cents, each, flag, ids, put, stamps } from './writing.ts'

/** Event categories and types, with their questions, schedules and exceptions. */
export const EVENT_TYPES: Collection[] = [
  {
    name: 'event categories',
    path: '/api/event-categories/',
    write: each(async (trx, r) =>
      put(trx, 'event_categories', { id: r.id, name: r.name, is_removed: 0, ...stamps(r) }),
    ),
  },
  {
    name: 'event types',
    path: '/api/event-types/',
    write: each(async (trx, r) => {
      const written = await put(trx, 'event_types', {
        id: r.id,
        name: r.name,
        gym_id: r.gym_id,
        status: r.status,
        capacity: r.capacity ?? null,
        late_booking_window_minutes: r.late_booking_window_minutes,
        is_listed: flag(r.is_listed),
        max_reservations_per_day_for_customer: r.max_reservations_per_day_for_customer ?? null,
        waitlist_promotion_cutoff_hours: r.waitlist_promotion_cutoff_hours,
        booking_horizon_days: r.booking_horizon_days,
        schedule_type: r.schedule_type,
        ...stamps(r),
      })
      if (!written) return false
      for (const categoryId of (r.category_ids ?? []) as number[]) {
        // A removed category keeps its event types but is listed no more: it comes back removed.
        await put(trx, 'event_categories', {
          id: categoryId,
          name: `(removed category ${categoryId})`,
          is_removed: 1,
          created_at: r.created_at,
          updated_at: r.created_at,
        })
        await put(trx, 'event_type_categories', { event_type_id: r.id, event_category_id: categoryId })
      }
      return true
    }),
  },
  {
    name: 'event questions',
    path: (id) => `/api/event-types/${id}/questions/`,
    parents: ids('event_types'),
    write: each(async (trx, r) =>
      put(trx, 'event_questions', {
        id: r.id,
        event_type_id: r.event_type_id,
        text: r.text,
        kind: r.kind,
        choices: JSON.stringify(r.choices ?? []),
        is_required: flag(r.is_required),
        sort_order: r.sort_order,
        is_active: flag(r.is_active),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'event schedules',
    path: (id) => `/api/event-types/${id}/schedules/`,
    parents: ids('event_types'),
    write: each(async (trx, r) =>
      put(trx, 'event_schedules', {
        id: r.id,
        event_type_id: r.event_type_id,
        gym_id: r.gym_id,
        weekdays: JSON.stringify(r.weekdays),
        start_time: r.start_time,
        duration_minutes: r.duration_minutes,
        start_date: r.start_date,
        end_date: r.end_date ?? null,
        capacity: r.capacity ?? null,
        price_cents: cents(r.price),
        is_active: flag(r.is_active),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'event schedule exceptions',
    path: (id) => `/api/event-types/${id}/schedule-exceptions/`,
    parents: ids('event_types'),
    write: each(async (trx, r) =>
      put(trx, 'event_schedule_exceptions', {
        id: r.id,
        schedule_id: r.schedule_id,
        date: r.date,
        reason: r.reason ?? '',
        ...stamps(r),
      }),
    ),
  },
]

import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getWaitlistEntry, listWaitlistEntries } from './queries.ts'
import { joinWaitlist, leaveWaitlist, promoteEntry } from './rules.ts'
import { NoBody, WAITLIST_STATUSES, WaitlistEntryCreate, WaitlistEntryOut } from './schema.ts'
import { serializeWaitlistEntry } from './serializer.ts'

/** /api/waitlist-entries/: customers waiting for a spot at a full event. */
export const waitlistEntryRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/waitlist-entries',
    tag: 'Waitlist entries',
    noun: 'waitlist entry',
    plural: 'waitlist entries',
    read: 'staff',
    write: 'can_manage_events',
    descriptions: {
      list: 'Ordered by id (the order they joined). `status` is read as now: EXP for an entry still waiting once its event started.',
      create: [
        'Joins the waitlist of a full event. Refused with 400 and nothing written when the event has',
        'spots left (`The event has spots left: book it instead.`), the customer already holds a',
        'reservation for it or is already waiting (`This customer is already on the waitlist for this',
        'event.`), the event has started (`This event has started: its waitlist has expired.`), and for',
        'every reason a booking is refused other than the',
        'event being full (see POST /api/reservations/). When a spot opens (a cancellation, a raised',
        "capacity) and the event starts more than its type's `waitlist_promotion_cutoff_hours` from",
        'now, the first waiting entry is promoted in the same transaction: a reservation is made with',
        'its answers, and the entry reads PRO with its `reservation_id`. Later than that, staff promote',
        'by hand with `promote/`. Entries still waiting when the event starts read EXP.',
      ].join(' '),
    },
    filters: defineFilters({
      event_id: 'id',
      customer_id: 'id',
      status: {
        kind: 'choice',
        choices: WAITLIST_STATUSES,
        description: 'WAI, PRO, CAN or EXP, as read now',
      },
    }),
    output: WaitlistEntryOut,
    list: ({ deps }, filters) => listWaitlistEntries(deps.db, filters, deps.clock.now()),
    get: ({ deps }, id) => getWaitlistEntry(deps.db, id, deps.clock.now()),
    serialize: serializeWaitlistEntry,
    create: { body: WaitlistEntryCreate, run: ({ deps }, body) => joinWaitlist(deps, body) },
    actions: [
      {
        name: 'cancel',
        summary: 'Leave the waitlist',
        description:
          'No body, or `{}`. Refused unless the entry is waiting (`This entry is no longer waiting.`).',
        body: NoBody,
        run: ({ deps }, row, body) => leaveWaitlist(deps, row, body),
      },
      {
        name: 'promote',
        summary: 'Promote by hand',
        description: [
          'No body, or `{}`. Books the customer with their answers, whatever the cutoff: refused when',
          'the entry is not waiting (`This entry is no longer waiting.`), its event has started (`This',
          'event has started: its waitlist has expired.`) or has no spot (`The event is full.`), and for',
          "the booking's reasons about the customer (inactive, already booked, the type's per-day limit).",
        ].join(' '),
        body: NoBody,
        run: ({ deps }, row, body) => promoteEntry(deps, row, body),
      },
    ],
  })

import { DateTime } from 'luxon'
import type { Insertable, Kysely, Transaction } from 'kysely'
import type { Database } from '../db/schema.ts'
import { paymentDetails, type PaymentDetails } from '../domain/payment-details.ts'
import { localDate, localTimeOfDay } from '../lib/local-time.ts'
import { toCents } from '../lib/money.ts'
import type { Source } from './source.ts'

/*
 * Every collection `belay import` copies, in an order that satisfies the foreign keys, and how each
 * API record goes back into its rows: the serializers in src/api/<resource>/serializer.ts read
 * backwards. Links in the records name the source's host: only ids are kept. A record that is
 * already there (same id) is passed over with everything under it, so a page asked twice writes
 * nothing twice.
 */

/** An API record as the source answered it. */
export type Rec = Record<string, any>

type Db = Kysely<Database>
type Tx = Transaction<Database>

/** What a page's writer may ask: the source (a document's PDF) and the gyms' time zones. */
export interface WriteContext {
  source: Source
  /** gym id -> its time zone (the check-ins' local day), read before each collection */
  gymZones: Map<number, string>
}

export interface Collection {
  /** as the progress lines and the closing table name it */
  name: string
  /** the list's path, or the one record's for a `single` collection */
  path: string | ((parentId: string) => string)
  /** a collection under a parent: the parents' ids, from the rows already copied, in order */
  parents?: (db: Db) => Promise<string[]>
  /** one record rather than a list (the organization, its quick sales) */
  single?: boolean
  /**
   * Fetch what the page's records need besides themselves (a PDF, a photo), before its
   * transaction; then `write` puts the page in. Answers how many records were new.
   */
  prepare?: (records: Rec[], context: WriteContext) => Promise<unknown>
  write: (
    trx: Tx,
    records: Rec[],
    parentId: string | null,
    context: WriteContext,
    prepared: unknown,
  ) => Promise<number>
}

const flag = (value: unknown): 0 | 1 => (value === true ? 1 : 0)
const cents = (value: number | string): number => toCents(value)
const nullableCents = (value: number | string | null): number | null =>
  value === null ? null : toCents(value)
/** "0.0825" with 4 places -> 825 */
const units = (value: string | number, places: number): number => Math.round(Number(value) * 10 ** places)

/** The tables whose key is not `id`, and their key's columns. */
const KEYS: Partial<Record<keyof Database, string[]>> = {
  climb_setters: ['climb_id', 'staff_user_id'],
  event_type_categories: ['event_type_id', 'event_category_id'],
  membership_member_add_ons: ['membership_member_id', 'add_on_id'],
  quick_sales: ['position'],
  customer_photos: ['customer_id'],
  customer_document_files: ['document_id'],
}

/**
 * Inserts the row unless one with its key is there; whether it went in. Only the key is passed
 * over: any other refusal (a barcode the copy already holds) stops the import, naming the record.
 */
async function put<T extends keyof Database & string>(
  trx: Tx,
  table: T,
  row: Insertable<Database[T]>,
): Promise<boolean> {
  const result = await (trx as unknown as Kysely<any>)
    .insertInto(table)
    .values(row)
    .onConflict((oc) => oc.columns(KEYS[table] ?? ['id']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
}

/** Writes each record with `one`, counting those that went in. */
const each =
  (
    one: (
      trx: Tx,
      record: Rec,
      parentId: string | null,
      context: WriteContext,
      prepared: any,
    ) => Promise<boolean>,
  ) =>
  async (trx: Tx, records: Rec[], parentId: string | null, context: WriteContext, prepared: unknown) => {
    let written = 0
    for (const record of records) {
      try {
        if (await one(trx, record, parentId, context, prepared)) written++
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error)
        const which = record.id === undefined ? 'a record' : `record ${String(record.id)}`
        throw new RecordRefused(`${which} could not be written: ${why}`)
      }
    }
    return written
  }

const ids = (table: 'gyms' | 'customers' | 'event_types') => async (db: Db) =>
  (await db.selectFrom(table).select('id').orderBy('id').execute()).map((row) => String(row.id))

const stamps = (r: Rec) => ({ created_at: r.created_at as string, updated_at: r.updated_at as string })

/** A stored link the box keeps as its own path (a photo), given back absolute: its path again. */
function ownPath(value: string, source: Source): string {
  if (!/^https?:\/\//.test(value)) return value
  const resolved = source.resolve(value)
  return resolved.startsWith(source.base) ? resolved.slice(source.base.length) || '/' : value
}

/** "2026-11-22T08:15:00" on the gym's wall clock -> the UTC instant, as the box stores times. */
const utcOf = (local: string, zone: string): string => DateTime.fromISO(local, { zone }).toUTC().toISO()!

/** A record the copy's tables refuse (a value unique there twice, a missing parent). */
export class RecordRefused extends Error {}

export const COLLECTIONS: Collection[] = [
  {
    name: 'organization',
    path: '/api/organization/',
    single: true,
    write: each(async (trx, r) =>
      put(trx, 'organization', {
        id: 1,
        name: r.name,
        time_zone: r.time_zone,
        currency: r.currency,
        waiver_required: flag(r.waiver_required),
        milestones: JSON.stringify(r.milestones),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'gyms',
    path: '/api/gyms/',
    write: each(async (trx, r) =>
      put(trx, 'gyms', {
        id: r.id,
        name: r.name,
        hide_setter: flag(r.hide_setter),
        time_zone: r.time_zone,
        scheduler_url_path: r.scheduler_url_path ?? '',
        scheduler_landing_page_text: r.scheduler_landing_page_text ?? '',
        scheduler_first_day_of_week: r.scheduler_first_day_of_week ?? 'SUN',
        capacity: r.capacity ?? null,
        combine_same_day_check_ins: flag(r.combine_same_day_check_ins),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'tax rates',
    path: '/api/tax-rates/',
    write: each(async (trx, r) =>
      put(trx, 'tax_rates', {
        id: r.id,
        name: r.name,
        rate_basis_points: units(r.rate, 4),
        is_active: flag(r.is_active),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'staff users',
    path: '/api/users/',
    // No password and no PIN travel: each account gets none here, and an admin sets them.
    write: each(async (trx, r) =>
      put(trx, 'staff_users', {
        id: r.id,
        email: r.email,
        first_name: r.first_name,
        last_name: r.last_name,
        default_gym_id: r.default_gym_id,
        date_joined: r.date_joined,
        is_active: flag(r.is_active),
        can_manage_events: flag(r.can_manage_events),
        can_manage_members: flag(r.can_manage_members),
        can_manage_customer_proficiencies: flag(r.can_manage_customer_proficiencies),
        can_export_customers: flag(r.can_export_customers),
        can_access_reports: flag(r.can_access_reports),
        can_manage_climbs: flag(r.can_manage_climbs),
        is_organization_admin: flag(r.is_organization_admin),
        pin_mode_required: flag(r.pin_mode_required),
        password_hash: null,
        pin_hash: null,
      }),
    ),
  },
  {
    name: 'waiver texts',
    path: '/api/waiver-texts/',
    write: each(async (trx, r) =>
      put(trx, 'waiver_texts', {
        id: r.id,
        text: r.text,
        valid_for_days: r.valid_for_days ?? null,
        created_at: r.created_at,
        created_by_user_id: r.created_by_id ?? null,
      }),
    ),
  },
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
  {
    name: 'grades',
    path: (id) => `/api/gyms/${id}/grades/`,
    parents: ids('gyms'),
    write: each(async (trx, r) =>
      put(trx, 'grades', {
        id: r.id,
        gym_id: r.gym_id,
        name: r.name,
        system: r.system,
        discipline: r.discipline,
        rank: r.rank,
        color_hex: r.color_hex ?? null,
        target_count: r.target_count ?? null,
        is_active: flag(r.is_active),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'sections',
    path: (id) => `/api/gyms/${id}/sections/`,
    parents: ids('gyms'),
    write: each(async (trx, r) =>
      put(trx, 'sections', {
        id: r.id,
        gym_id: r.gym_id,
        name: r.name,
        discipline: r.discipline,
        sort_order: r.sort_order,
        description: r.description ?? '',
        is_active: flag(r.is_active),
        last_reset_date: r.last_reset_date ?? null,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'climbs',
    path: (id) => `/api/gyms/${id}/climbs/`,
    parents: ids('gyms'),
    write: each(async (trx, r) => {
      const written = await put(trx, 'climbs', {
        id: r.id,
        gym_id: r.gym_id,
        section_id: r.section_id,
        grade_id: r.grade_id,
        discipline: r.discipline,
        name: r.name ?? '',
        hold_color: r.hold_color ?? '',
        color_hex: r.color_hex ?? null,
        set_date: r.set_date,
        planned_strip_date: r.planned_strip_date ?? null,
        stripped_date: r.stripped_date ?? null,
        description: r.description ?? '',
        ...stamps(r),
      })
      if (!written) return false
      const setters = (r.setter_ids ?? []) as number[]
      for (const [position, staffUserId] of setters.entries())
        await put(trx, 'climb_setters', { climb_id: r.id, staff_user_id: staffUserId, position })
      return true
    }),
  },
  {
    name: 'membership types',
    path: '/api/memberships/',
    write: each(async (trx, r) =>
      put(trx, 'membership_types', {
        id: r.id,
        name: r.name,
        description: r.description ?? '',
        status: r.status,
        purchase_type: r.purchase_type,
        interval: r.interval ?? '',
        price_cents: cents(r.price),
        is_group: flag(r.is_group),
        is_youth_programming: flag(r.is_youth_programming),
        duration_years: r.duration_years ?? null,
        duration_months: r.duration_months ?? null,
        duration_days: r.duration_days ?? null,
        location_id: r.location_id ?? null,
        access_hours: r.access_hours == null ? null : JSON.stringify(r.access_hours),
        guest_passes_per_month: r.guest_passes_per_month ?? 0,
        tax_rate_id: r.tax_rate_id ?? null,
        revenue_account_code: r.revenue_account_code ?? '',
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'add-ons',
    path: '/api/add-ons/',
    write: each(async (trx, r) =>
      put(trx, 'add_ons', {
        id: String(r.id),
        name: r.name,
        fee_cents: cents(r.fee),
        is_visible: flag(r.is_visible),
        icon_color_hex: r.icon_color_hex ?? '',
        icon_initials: r.icon_initials ?? '',
        revenue_account_codes: JSON.stringify(r.revenue_account_codes ?? {}),
        tax_rate_id: r.tax_rate_id ?? null,
        tax_rate_per_location:
          r.tax_rate_per_location == null ? null : JSON.stringify(r.tax_rate_per_location),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'entry pass types',
    path: '/api/entry-passes/',
    write: each(async (trx, r) =>
      put(trx, 'entry_pass_types', {
        id: r.id,
        name: r.name,
        status: r.status,
        number_of_entries: r.number_of_entries,
        valid_days: r.valid_days ?? null,
        price_cents: cents(r.price),
        tax_rate_id: r.tax_rate_id ?? null,
        revenue_account_code: r.revenue_account_code ?? '',
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'voucher packs',
    path: '/api/voucher-packs/',
    write: each(async (trx, r) =>
      put(trx, 'voucher_packs', {
        id: r.id,
        name: r.name,
        status: r.status,
        event_type_id: r.event_type_id,
        number_of_uses: r.number_of_uses,
        valid_days: r.valid_days ?? null,
        price_cents: cents(r.price),
        tax_rate_id: r.tax_rate_id ?? null,
        revenue_account_code: r.revenue_account_code ?? '',
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'discounts',
    path: '/api/discounts/',
    write: each(async (trx, r) =>
      put(trx, 'discounts', {
        id: r.id,
        code: r.code,
        name: r.name ?? '',
        display_name: r.display_name ?? '',
        association_id: r.association_id ?? null,
        percent_off_hundredths: r.percent_off == null ? null : units(r.percent_off, 2),
        amount_off_cents: nullableCents(r.amount_off ?? null),
        is_active: flag(r.is_active),
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customers',
    path: '/api/customers/',
    // A customer's photo is the box's own file behind profile_image_url: fetched with the page.
    prepare: async (records, { source }) => {
      const photos = new Map<number, { contentType: string; bytes: Uint8Array }>()
      for (const r of records) {
        const path = ownPath(r.profile_image_url ?? '', source)
        if (path !== `/api/customers/${r.id}/photo/`) continue
        const photo = await source.file(path)
        if (photo) photos.set(r.id, photo)
      }
      return photos
    },
    write: each(
      async (
        trx,
        r,
        _parent,
        { source },
        photos: Map<number, { contentType: string; bytes: Uint8Array }>,
      ) => {
        const written = await put(trx, 'customers', {
          id: r.id,
          first_name: r.first_name,
          last_name: r.last_name,
          preferred_name: r.preferred_name ?? '',
          email: r.email ?? null,
          telephone: r.telephone ?? '',
          birthday: r.birthday ?? '',
          barcode: r.barcode ?? null,
          is_active: flag(r.is_active),
          home_location_id: r.home_location_id ?? null,
          address_street_1: r.address_street_1 ?? '',
          address_street_2: r.address_street_2 ?? '',
          address_city: r.address_city ?? '',
          address_state: r.address_state ?? '',
          address_postcode: r.address_postcode ?? '',
          address_country: r.address_country ?? '',
          profile_image_url: ownPath(r.profile_image_url ?? '', source),
          first_check_in_timestamp: r.first_check_in_timestamp ?? null,
          ...stamps(r),
        })
        const photo = photos.get(r.id)
        if (written && photo)
          await put(trx, 'customer_photos', {
            customer_id: r.id,
            content_type: photo.contentType,
            content: photo.bytes,
            taken_at: r.updated_at,
          })
        return written
      },
    ),
  },
  {
    name: 'customer alerts',
    path: (id) => `/api/customers/${id}/alerts/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_alerts', {
        id: r.id,
        customer_id: Number(r.customer_id ?? parent),
        alert_text: r.alert_text,
        color_hex: r.color_hex,
        prevents_check_in: flag(r.prevents_check_in),
        is_active: flag(r.is_active),
        created_date: r.created_date,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer documents',
    path: (id) => `/api/customers/${id}/documents/`,
    parents: ids('customers'),
    prepare: async (records, { source }) => {
      const files = new Map<number, { contentType: string; bytes: Uint8Array }>()
      for (const r of records) {
        if (typeof r.pdf !== 'string') continue
        const file = await source.file(r.pdf)
        if (file) files.set(r.id, file)
      }
      return files
    },
    write: each(
      async (trx, r, parent, _context, files: Map<number, { contentType: string; bytes: Uint8Array }>) => {
        const written = await put(trx, 'customer_documents', {
          id: r.id,
          customer_id: Number(parent),
          name: r.name,
          kind: r.kind,
          expiration_date: r.expiration_date ?? null,
          ...stamps(r),
        })
        const file = files.get(r.id)
        if (written && file)
          await put(trx, 'customer_document_files', {
            document_id: r.id,
            content_type: file.contentType,
            content: file.bytes,
          })
        return written
      },
    ),
  },
  {
    name: 'customer credits',
    path: (id) => `/api/customers/${id}/credits/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_credits', {
        id: r.id,
        customer_id: Number(parent),
        amount_total_cents: cents(r.amount_total),
        amount_remaining_cents: cents(r.amount_remaining),
        expiry_date: r.expiry_date ?? null,
        is_removed: flag(r.is_removed),
        created_by_id: r.created_by_id ?? null,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer emergency contacts',
    path: (id) => `/api/customers/${id}/emergency-contacts/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_emergency_contacts', {
        id: r.id,
        customer_id: Number(parent),
        first_name: r.first_name,
        last_name: r.last_name,
        telephone: r.telephone,
        email: r.email ?? '',
        relation: r.relation ?? '',
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer medical notes',
    path: (id) => `/api/customers/${id}/medical-notes/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_medical_notes', {
        id: r.id,
        customer_id: Number(parent),
        medical_notes: r.medical_notes,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer relations',
    path: (id) => `/api/customers/${id}/relations/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_relations', {
        id: r.id,
        customer_id: Number(parent),
        related_customer_id: r.related_customer_id,
        relation: r.relation,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer event vouchers',
    path: (id) => `/api/customers/${id}/event-vouchers/`,
    parents: ids('customers'),
    write: each(async (trx, r, parent) =>
      put(trx, 'customer_event_vouchers', {
        id: r.id,
        customer_id: Number(parent),
        event_type_id: r.event_type_id,
        number_of_uses_total: r.number_of_uses_total,
        number_of_uses_remaining: r.number_of_uses_remaining,
        expiry_date: r.expiry_date ?? null,
        is_removed: flag(r.is_removed),
        created_by_id: r.created_by_id ?? null,
        ...stamps(r),
      }),
    ),
  },
  {
    name: 'customer memberships',
    path: '/api/customer-memberships/',
    write: each(async (trx, r) => {
      const written = await put(trx, 'customer_memberships', {
        id: r.id,
        membership_type_id: r.membership_id,
        owner_id: r.owner_id,
        status: r.status,
        start_date: r.start_date,
        end_date: r.end_date ?? null,
        billing_location_id: r.billing_location_id ?? null,
        has_payment_method: flag(r.has_payment_method),
        is_pending_staff_approval: flag(r.is_pending_staff_approval),
        billing_amount_cents: cents(r.billing_amount),
        referring_customer_id: r.referring_customer_id ?? null,
        ...stamps(r),
      })
      if (!written) return false
      // Members and status changes have no id of their own in the API: they get new ones here.
      for (const member of (r.members ?? []) as Rec[]) {
        const row = await trx
          .insertInto('membership_members')
          .values({
            customer_membership_id: r.id,
            customer_id: member.customer_id,
            is_frozen: flag(member.is_frozen),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        for (const addOn of (member.add_ons ?? []) as Rec[])
          await put(trx, 'membership_member_add_ons', {
            membership_member_id: row.id,
            add_on_id: String(addOn.id),
          })
      }
      for (const change of (r.status_history ?? []) as Rec[])
        await trx
          .insertInto('membership_status_changes')
          .values({
            customer_membership_id: r.id,
            member_customer_id: change.member_customer_id ?? null,
            from_status: change.from_status ?? null,
            to_status: change.to_status,
            changed_on: change.changed_on,
            changed_by_id: null,
            created_at: `${change.changed_on}T00:00:00.000Z`,
          })
          .execute()
      return true
    }),
  },
  {
    name: 'customer entry passes',
    path: '/api/customer-entry-passes/',
    write: each(async (trx, r) =>
      put(trx, 'customer_entry_passes', {
        id: r.id,
        entry_pass_type_id: r.entry_pass_id,
        owner_id: r.owner_id,
        purchaser_id: r.purchaser_id ?? null,
        entries_total: r.entries_total,
        entries_remaining: r.entries_remaining,
        expiry_date: r.expiry_date ?? null,
        acquired_via: r.acquired_via,
        ...stamps(r),
      }),
    ),
  },
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
  {
    name: 'invoices',
    path: '/api/invoices/',
    write: each(async (trx, r) => {
      const written = await put(trx, 'invoices', {
        id: r.id,
        customer_id: r.customer_id ?? null,
        gym_id: r.location_id,
        staff_user_id: r.staff_user_id ?? null,
        description: r.description ?? '',
        ...stamps(r),
      })
      if (!written) return false
      for (const [position, line] of ((r.line_items ?? []) as Rec[]).entries()) {
        await put(trx, 'invoice_line_items', {
          id: line.id,
          invoice_id: r.id,
          position,
          purchase_type: line.purchase_type,
          description: line.description ?? '',
          quantity: line.quantity,
          unit_price_cents: cents(line.unit_price),
          discount_cents: cents(line.discount_amount),
          net_cents: cents(line.net_amount),
          tax_rate_id: line.tax_rate_id ?? null,
          tax_rate_basis_points: units(line.tax_rate ?? 0, 4),
          tax_cents: cents(line.tax_amount),
          revenue_account_code: line.revenue_account_code ?? '',
          membership_type_id: line.membership_id ?? null,
          entry_pass_type_id: line.entry_pass_id ?? null,
          event_id: line.event_id ?? null,
          voucher_pack_id: line.voucher_pack_id ?? null,
          customer_membership_id: line.customer_membership_id ?? null,
          reservation_id: line.reservation_id ?? null,
          customer_event_voucher_id: line.customer_event_voucher_id ?? null,
          period_start: line.period_start ?? null,
        })
        // The passes a line granted name their invoice only here.
        const passIds = (line.customer_entry_pass_ids ?? []) as number[]
        if (passIds.length > 0)
          await trx
            .updateTable('customer_entry_passes')
            .set({ invoice_id: r.id })
            .where('id', 'in', passIds)
            .execute()
      }
      for (const [position, discount] of ((r.discounts ?? []) as Rec[]).entries())
        await trx
          .insertInto('invoice_discounts')
          .values({
            invoice_id: r.id,
            position,
            discount_id: discount.discount_id,
            code: discount.code,
            name: discount.name ?? '',
            display_name: discount.display_name ?? '',
            association_id: discount.association_id ?? null,
            amount_cents: cents(discount.amount),
          })
          .execute()
      for (const payment of (r.payments ?? []) as Rec[])
        await put(trx, 'payments', {
          id: payment.id,
          invoice_id: r.id,
          status: payment.status,
          payment_type: payment.payment_type,
          payment_method_type: payment.payment_method_type ?? 'NA',
          amount_cents: cents(payment.amount),
          amount_refunded_cents: cents(payment.amount_refunded ?? 0),
          processor_fee_cents: cents(payment.processor_fee ?? 0),
          failure_message: payment.failure_message ?? '',
          credit_id: payment.credit_id ?? null,
          voucher_id: payment.voucher_id ?? null,
          ...paymentDetails(payment as PaymentDetails),
          created_at: payment.created_at,
          updated_at: payment.updated_at,
        })
      for (const refund of (r.refunds ?? []) as Rec[])
        await put(trx, 'refunds', {
          id: refund.id,
          payment_id: refund.payment_id,
          amount_cents: cents(refund.amount),
          processor_fee_cents: cents(refund.processor_fee ?? 0),
          reason: refund.reason ?? '',
          staff_user_id: null,
          created_at: refund.created_at,
        })
      return true
    }),
  },
  {
    name: 'check-ins',
    path: '/api/check-ins/',
    write: each(async (trx, r, _parent, context) => {
      const zone = context.gymZones.get(r.location_id) ?? 'UTC'
      const at = new Date(r.created_at)
      return put(trx, 'check_ins', {
        id: r.id,
        customer_id: r.customer_id,
        gym_id: r.location_id,
        entry_method: r.entry_method,
        entry_method_description: r.entry_method_description ?? '',
        free_entry_reason: r.free_entry_reason ?? '',
        free_entry_granting_user_id: r.free_entry_granting_user_id ?? null,
        converted_from_free_entry: flag(r.converted_from_free_entry),
        milestone_list: JSON.stringify(r.milestone_list ?? []),
        check_in_count: r.check_in_count ?? null,
        local_date: localDate(at, zone),
        local_time: localTimeOfDay(at, zone),
        check_out_at: r.check_out_datetime == null ? null : utcOf(r.check_out_datetime, zone),
        ...stamps(r),
      })
    }),
  },
  {
    name: 'quick sales',
    path: '/api/organization/quick-sales/',
    single: true,
    write: async (trx, records) => {
      let written = 0
      for (const [position, sale] of ((records[0]?.quick_sales ?? []) as Rec[]).entries())
        if (
          await put(trx, 'quick_sales', {
            position,
            purchase_type: sale.purchase_type,
            product_id: sale.product_id,
            label: sale.label,
          })
        )
          written++
      return written
    },
  },
]

/** A booking's answers as the API shows them (with each question's text) -> as stored. */
const storedAnswers = (answers: Rec[] | undefined): string =>
  JSON.stringify((answers ?? []).map((a) => ({ question_id: a.question_id, answer: a.answer })))

/**
 * What the collections leave behind that is the box's own to keep: each customer's count of
 * check-ins (the door's milestones count on from it), worked out once every check-in is in.
 */
export async function settleDerivedColumns(db: Db): Promise<void> {
  await db
    .updateTable('customers')
    .set((eb) => ({
      check_in_count: eb
        .selectFrom('check_ins')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('check_ins.customer_id', '=', 'customers.id'),
    }))
    .execute()
}

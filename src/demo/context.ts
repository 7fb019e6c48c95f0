import type { Insertable } from 'kysely'
import type { Db } from '../db/connection.ts'
import type { Database } from '../db/schema.ts'
import type { Calendar } from './calendar.ts'
import { streamFor, type Random } from './random.ts'

export type DemoSize = 'small' | 'large'

/** How big each size is. `customers` is exact; everything else follows from the draws. */
export interface SizeProfile {
  customers: number
  gyms: number
  deskStaffPerGym: number
  /** How full classes are: a 240-customer gym does not fill its schedule. */
  classFill: number
  /** Over-the-counter sales (rentals, chalk, drinks) an open gym makes on an average day. */
  retailSalesPerGymDay: number
}

export const PROFILES: Record<DemoSize, SizeProfile> = {
  small: { customers: 240, gyms: 2, deskStaffPerGym: 2, classFill: 0.35, retailSalesPerGymDay: 0.1 },
  large: { customers: 21_000, gyms: 3, deskStaffPerGym: 3, classFill: 1, retailSalesPerGymDay: 62 },
}

export type Row<T extends keyof Database> = Insertable<Database[T]>

/** Tables the demo fills, in an order that satisfies every foreign key. */
export const INSERT_ORDER = [
  'tax_rates',
  'discounts',
  'event_categories',
  'event_types',
  'event_type_categories',
  'voucher_packs',
  'membership_types',
  'add_ons',
  'entry_pass_types',
  'customers',
  'customer_alerts',
  'customer_credits',
  'customer_emergency_contacts',
  'customer_medical_notes',
  'customer_relations',
  'customer_documents',
  'customer_event_vouchers',
  'customer_memberships',
  'membership_status_changes',
  'membership_members',
  'membership_member_add_ons',
  'customer_entry_passes',
  'events',
  'reservations',
  'invoices',
  'invoice_discounts',
  'invoice_line_items',
  'gifts',
  'payments',
  'refunds',
  'grades',
  'sections',
  'climbs',
  'climb_setters',
  // Never held in `rows`: the check-ins are written from their plan a batch at a time.
  'check_ins',
] as const satisfies readonly (keyof Database)[]

export type DemoTable = (typeof INSERT_ORDER)[number]
export type DemoRows = { [T in DemoTable]: Row<T>[] }

export const emptyRows = (): DemoRows =>
  Object.fromEntries(INSERT_ORDER.map((table) => [table, []])) as unknown as DemoRows

/** Tables whose ids are not counted here: add-ons have text ids, link tables none of their own. */
const WITHOUT_COUNTED_IDS = [
  'add_ons',
  'membership_member_add_ons',
  'event_type_categories',
  'climb_setters',
] as const
type IdTable = Exclude<DemoTable, (typeof WITHOUT_COUNTED_IDS)[number]>
const hasCountedIds = (table: DemoTable): table is IdTable =>
  !(WITHOUT_COUNTED_IDS as readonly DemoTable[]).includes(table)

/**
 * Ids are assigned here rather than by SQLite so rows can point at each other before anything is
 * inserted, and so multi-row inserts need no RETURNING. They continue after any existing rows.
 */
export class Ids {
  private constructor(private readonly next: Record<IdTable, number>) {}

  static async load(db: Db): Promise<Ids> {
    const next = {} as Record<IdTable, number>
    for (const table of INSERT_ORDER) {
      if (!hasCountedIds(table)) continue
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.max<number | null>('id').as('max'))
        .executeTakeFirstOrThrow()
      next[table] = (row.max ?? 0) + 1
    }
    return new Ids(next)
  }

  take(table: IdTable): number {
    return this.next[table]++
  }

  /** The first of `count` ids in a row, the rest following it. */
  takeRange(table: IdTable, count: number): number {
    const first = this.next[table]
    this.next[table] += count
    return first
  }
}

/** A gym of the demo, with the index the word lists use for "nearest gym". */
export interface DemoGym {
  id: number
  index: number
  name: string
}

export interface DemoStaff {
  adminId: number
  managerId: number
  eventsId: number
  /** Desk staff (manage members): who records waivers, freezes and cancellations. */
  deskIds: number[]
  /** Route setters (manage climbs), a few at each gym, the first at each its head setter. */
  setters: DemoSetter[]
}

export interface DemoSetter {
  id: number
  gymId: number
  /** The local day they joined: they set nothing before it. */
  joinedDay: number
}

/** What every generator reads: the clock, the gyms and staff, ids, and its own random stream. */
export interface DemoContext {
  size: DemoSize
  profile: SizeProfile
  seed: number
  cal: Calendar
  ids: Ids
  gyms: DemoGym[]
  staff: DemoStaff
  /** The organization's check-in milestones, which the demo's check-ins reach as the door's do */
  milestones: readonly number[]
  rows: DemoRows
}

export const stream = (ctx: DemoContext, area: string): Random => streamFor(ctx.seed, area)

/** A gym id for a "nearest gym" index from the word lists (the first gym when there are fewer). */
export const gymFor = (ctx: DemoContext, index: number): DemoGym => ctx.gyms[index] ?? ctx.gyms[0]!

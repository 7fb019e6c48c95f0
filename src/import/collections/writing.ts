import { DateTime } from 'luxon'
import type { Insertable, Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { toCents } from '../../lib/money.ts'
import type { Source } from '../source.ts'

/*
 * What every collection's writer shares: a collection's shape, `put` (a row unless its key is
 * there), `each` (a page's records, naming the one refused) and the conversions from API values to
 * stored ones.
 */

/** An API record as the source answered it. */
export type Rec = Record<string, any>

export type Db = Kysely<Database>
export type Tx = Transaction<Database>

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

export const flag = (value: unknown): 0 | 1 => (value === true ? 1 : 0)
export const cents = (value: number | string): number => toCents(value)
export const nullableCents = (value: number | string | null): number | null =>
  value === null ? null : toCents(value)
/** "0.0825" with 4 places -> 825 */
export const units = (value: string | number, places: number): number =>
  Math.round(Number(value) * 10 ** places)

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
export async function put<T extends keyof Database & string>(
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
export const each =
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

export const ids = (table: 'gyms' | 'customers' | 'event_types') => async (db: Db) =>
  (await db.selectFrom(table).select('id').orderBy('id').execute()).map((row) => String(row.id))

export const stamps = (r: Rec) => ({ created_at: r.created_at as string, updated_at: r.updated_at as string })

/** A stored link the box keeps as its own path (a photo), given back absolute: its path again. */
export function ownPath(value: string, source: Source): string {
  if (!/^https?:\/\//.test(value)) return value
  const resolved = source.resolve(value)
  return resolved.startsWith(source.base) ? resolved.slice(source.base.length) || '/' : value
}

/** "2026-11-22T08:15:00" on the gym's wall clock -> the UTC instant, as the box stores times. */
export const utcOf = (local: string, zone: string): string =>
  DateTime.fromISO(local, { zone }).toUTC().toISO()!

/** A record the copy's tables refuse (a value unique there twice, a missing parent). */
export class RecordRefused extends Error {}

/** A booking's answers as the API shows them (with each question's text) -> as stored. */
export const storedAnswers = (answers: Rec[] | undefined): string =>
  JSON.stringify((answers ?? []).map((a) => ({ question_id: a.question_id, answer: a.answer })))

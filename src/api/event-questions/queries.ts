import type { Insertable, Selectable, Updateable } from 'kysely'
import { definedChanges } from '../../db/changes.ts'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { EventQuestionTable } from '../../db/schema.ts'

export type EventQuestionRow = Selectable<EventQuestionTable>

/** The stored choices (a JSON list of strings). */
export const choicesOf = (row: Pick<EventQuestionRow, 'choices'>): string[] =>
  JSON.parse(row.choices) as string[]

export interface EventQuestionFilters {
  is_active?: boolean
}

export const eventTypeExists = async (db: Db, id: number): Promise<boolean> =>
  (await db.selectFrom('event_types').select('id').where('id', '=', id).executeTakeFirst()) !== undefined

function filtered(db: Db, eventTypeId: number, filters: EventQuestionFilters) {
  let query = db.selectFrom('event_questions').where('event_type_id', '=', eventTypeId)
  if (filters.is_active !== undefined) query = query.where('is_active', '=', filters.is_active ? 1 : 0)
  return query
}

/** An event type's questions in the order they are asked: sort_order, then id. */
export const listEventQuestions = (
  db: Db,
  eventTypeId: number,
  filters: EventQuestionFilters,
): ListSource<EventQuestionRow> =>
  listFrom(filtered(db, eventTypeId, filters), {
    order: (query) => query.orderBy('sort_order').orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

/** One question of one event type: another type's question is not found. */
export const getEventQuestion = (
  db: Db,
  eventTypeId: number,
  id: number,
): Promise<EventQuestionRow | undefined> =>
  filtered(db, eventTypeId, {}).selectAll().where('id', '=', id).executeTakeFirst()

export async function insertEventQuestion(db: Db, question: Insertable<EventQuestionTable>): Promise<number> {
  return (await db.insertInto('event_questions').values(question).returning('id').executeTakeFirstOrThrow())
    .id
}

export async function updateEventQuestion(
  db: Db,
  id: number,
  changes: Updateable<EventQuestionTable>,
): Promise<void> {
  const set = definedChanges(changes)
  if (set) await db.updateTable('event_questions').set(set).where('id', '=', id).execute()
}

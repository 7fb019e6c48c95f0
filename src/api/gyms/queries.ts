import type { FieldErrorCollector } from '../../http/errors.ts'
import { lookUpReferenced } from '../../http/references.ts'
import type { Db } from '../../db/connection.ts'
import type { Gym, GymUpdate, NewGym } from '../../db/schema.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'

export const listGyms = (db: Db): ListSource<Gym> =>
  listFrom(db.selectFrom('gyms'), {
    order: (query) => query.orderBy('id'),
    rows: (page) => page.selectAll().execute(),
  })

export const getGym = (db: Db, id: number): Promise<Gym | undefined> =>
  db.selectFrom('gyms').selectAll().where('id', '=', id).executeTakeFirst()

export async function insertGym(db: Db, gym: NewGym): Promise<number> {
  const row = await db.insertInto('gyms').values(gym).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function updateGym(db: Db, id: number, changes: GymUpdate): Promise<void> {
  await db.updateTable('gyms').set(changes).where('id', '=', id).execute()
}

export async function gymExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('gyms').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}

/**
 * The check every body's gym id field gets (`home_location_id`, `gym_id`, `location_id`, ...): when
 * an id was sent, it must name a gym, else DRF's "Invalid pk" on that field.
 */
export const lookUpGym = (
  db: Db,
  errors: FieldErrorCollector,
  field: string,
  id: number | null | undefined,
) => lookUpReferenced(errors, field, id, (gymId) => gymExists(db, gymId))

import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../src/db/connection.ts'
import type { CheckInTable } from '../../src/db/schema.ts'
import { localDate, localTimeOfDay } from '../../src/lib/local-time.ts'
import { START } from './app.ts'

/**
 * Check-ins written straight into the database, as the door's transaction leaves them, for the
 * history tests (which must not depend on the door's rules). `at` is the check-in instant
 * (created_at, and updated_at unless given); local_date and local_time follow from it in the gym's zone.
 */
export async function makeCheckIn(
  db: Db,
  fields: Partial<Omit<Insertable<CheckInTable>, 'id'>> & {
    customer_id: number
    gym_id: number
    at?: string
  },
): Promise<Selectable<CheckInTable>> {
  const { at = START, ...rest } = fields
  const gym = await db
    .selectFrom('gyms')
    .select('time_zone')
    .where('id', '=', fields.gym_id)
    .executeTakeFirstOrThrow()
  return db
    .insertInto('check_ins')
    .values({
      entry_method: 'MEM',
      entry_method_description: 'Monthly Adult',
      free_entry_reason: '',
      converted_from_free_entry: 0,
      milestone_list: '[]',
      check_in_count: 1,
      local_date: localDate(new Date(at), gym.time_zone),
      local_time: localTimeOfDay(new Date(at), gym.time_zone),
      created_at: at,
      updated_at: at,
      ...rest,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { Refused } from '../../domain/refused.ts'

/*
 * Taking climbs down (walls.md). A stripped climb keeps its row, with the local date it came down,
 * for the history the stats read (days up, who set what). A climb's strip and a section's reset
 * both come here, so "up" is one rule: stripped_date IS NULL.
 *
 * Each runs in one transaction that checks and writes: two strips of one climb at once have one
 * winner (the second finds it stripped and is refused), and a reset strips every climb it finds up
 * or, refused, none.
 */

export const strippingMessages = {
  alreadyStripped: 'This climb has already been stripped.',
  beforeSetDate: (setDate: string) => `A climb cannot be stripped before it was set (${setDate}).`,
  inTheFuture: (today: string) => `Enter a date no later than today (${today}).`,
} as const

/**
 * Strips one climb on `date` (a local date, not after `today`); throws Refused with nothing written.
 * Answers false, writing nothing, when there is no such climb (deleted since the caller read it).
 */
export function stripClimb(
  db: Db,
  climbId: number,
  date: string,
  today: string,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const climb = await trx
      .selectFrom('climbs')
      .select(['set_date', 'stripped_date'])
      .where('id', '=', climbId)
      .executeTakeFirst()
    if (climb === undefined) return false
    if (climb.stripped_date !== null)
      throw new Refused({ non_field_errors: [strippingMessages.alreadyStripped] })
    if (date > today) throw new Refused({ date: [strippingMessages.inTheFuture(today)] })
    if (date < climb.set_date) throw new Refused({ date: [strippingMessages.beforeSetDate(climb.set_date)] })
    await trx
      .updateTable('climbs')
      .set({ stripped_date: date, updated_at: now.toISOString() })
      .where('id', '=', climbId)
      .execute()
    return true
  })
}

/**
 * Resets a section on `date` (not after `today`): strips every climb up in it that was set by that
 * date and records the reset. A climb set later than the date was not up then, and stays. Answers
 * how many climbs came down.
 */
export function resetSection(
  db: Db,
  sectionId: number,
  date: string,
  today: string,
  now: Date,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (date > today) throw new Refused({ date: [strippingMessages.inTheFuture(today)] })
    const at = now.toISOString()
    const stripped = await trx
      .updateTable('climbs')
      .set({ stripped_date: date, updated_at: at })
      .where('section_id', '=', sectionId)
      .where('stripped_date', 'is', null)
      .where('set_date', '<=', date)
      .executeTakeFirst()
    await trx
      .updateTable('sections')
      // A reset recorded late, with a date before the last one, leaves the later date standing.
      .set({ last_reset_date: sql<string>`max(coalesce(last_reset_date, ${date}), ${date})`, updated_at: at })
      .where('id', '=', sectionId)
      .execute()
    return Number(stripped.numUpdatedRows)
  })
}

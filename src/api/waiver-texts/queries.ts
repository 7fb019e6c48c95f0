import type { Insertable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { WaiverTextTable } from '../../db/schema.ts'

export interface WaiverTextRow {
  id: number
  text: string
  valid_for_days: number | null
  created_at: string
  created_by_user_id: number | null
  created_by_first_name: string | null
  created_by_last_name: string | null
  created_by_email: string | null
  /** The newest version's id, to tell whether this one is current. */
  current_id: number
}

const withAuthor = (db: Db) =>
  db
    .selectFrom('waiver_texts')
    .leftJoin('staff_users', 'staff_users.id', 'waiver_texts.created_by_user_id')
    .select([
      'waiver_texts.id',
      'waiver_texts.text',
      'waiver_texts.valid_for_days',
      'waiver_texts.created_at',
      'waiver_texts.created_by_user_id',
      'staff_users.first_name as created_by_first_name',
      'staff_users.last_name as created_by_last_name',
      'staff_users.email as created_by_email',
    ])
    .select((eb) =>
      eb
        .selectFrom('waiver_texts as newest')
        .select((n) => n.fn.max('newest.id').as('id'))
        .$asScalar()
        .$castTo<number>()
        .as('current_id'),
    )

/** Newest first: the current text heads the list. */
export const listWaiverTexts = (db: Db): ListSource<WaiverTextRow> =>
  listFrom(db.selectFrom('waiver_texts'), {
    order: (query) => query.orderBy('waiver_texts.id', 'desc'),
    rows: (page) =>
      withAuthor(db)
        .where('waiver_texts.id', 'in', page.select('waiver_texts.id'))
        .orderBy('waiver_texts.id', 'desc')
        .execute(),
  })

export const getWaiverText = (db: Db, id: number): Promise<WaiverTextRow | undefined> =>
  withAuthor(db).where('waiver_texts.id', '=', id).executeTakeFirst()

/** The version signed now: the newest; undefined before an admin has written one. */
export const getCurrentWaiverText = (db: Db): Promise<WaiverTextRow | undefined> =>
  withAuthor(db).orderBy('waiver_texts.id', 'desc').limit(1).executeTakeFirst()

export async function insertWaiverText(db: Db, row: Insertable<WaiverTextTable>): Promise<number> {
  return (await db.insertInto('waiver_texts').values(row).returning('id').executeTakeFirstOrThrow()).id
}

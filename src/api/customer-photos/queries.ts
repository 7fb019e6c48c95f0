import type { Db } from '../../db/connection.ts'

export interface StoredPhoto {
  content_type: string
  content: Uint8Array
  taken_at: string
}

/** Where the box serves a customer's photo: the value `profile_image_url` holds while it has one. */
export const photoPath = (customerId: number): string => `/api/customers/${customerId}/photo/`

export const getPhoto = (db: Db, customerId: number): Promise<StoredPhoto | undefined> =>
  db
    .selectFrom('customer_photos')
    .select(['content_type', 'content', 'taken_at'])
    .where('customer_id', '=', customerId)
    .executeTakeFirst()

/**
 * Keeps `photo` as the customer's only photo and points their `profile_image_url` at it, in one
 * transaction: the record never names a photo the box does not hold.
 */
export async function replacePhoto(db: Db, customerId: number, photo: StoredPhoto): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('customer_photos')
      .values({ customer_id: customerId, ...photo })
      .onConflict((oc) => oc.column('customer_id').doUpdateSet(photo))
      .execute()
    await trx
      .updateTable('customers')
      .set({ profile_image_url: photoPath(customerId), updated_at: photo.taken_at })
      .where('id', '=', customerId)
      .execute()
  })
}

/**
 * Forgets the customer's photo; their `profile_image_url` is emptied when it pointed at it (a link
 * set by a client to a picture elsewhere stays). Returns whether there was a photo.
 */
export async function deletePhoto(db: Db, customerId: number, now: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('customer_photos')
      .where('customer_id', '=', customerId)
      .executeTakeFirst()
    await trx
      .updateTable('customers')
      .set({ profile_image_url: '', updated_at: now })
      .where('id', '=', customerId)
      .where('profile_image_url', '=', photoPath(customerId))
      .execute()
    return deleted.numDeletedRows > 0n
  })
}

import { t } from 'elysia'
import { notFound } from './errors.ts'

/** The one spelling of a record's id in a path: ASCII digits, as DRF's `\d+` URL patterns take. */
export const RECORD_ID_PATTERN = '^[0-9]+$'

/**
 * A path parameter that names a record by its integer id, read as that number. Only digits name a
 * record, and only a number JavaScript holds exactly: any other spelling that `Number()` would read
 * (`0x0A`, `1e1`, `+1`, `1.0`, `.1e1`, ` 1`) and digits past the largest safe integer (which would
 * round onto another id) name no record, and are 404 as an id no record has is. Used for every
 * such parameter of every route, so that no route reads an id its own way.
 */
export const RecordId = () =>
  t
    .Transform(t.String({ pattern: RECORD_ID_PATTERN }))
    .Decode((digits) => {
      const id = Number(digits)
      if (!Number.isSafeInteger(id)) throw notFound()
      return id
    })
    .Encode((id) => String(id))

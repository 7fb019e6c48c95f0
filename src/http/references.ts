import { messages, type FieldErrorCollector } from './errors.ts'

/**
 * Looks up the record a body's id field refers to. When the id was sent (not undefined, not null)
 * and `get` finds nothing, `field` gets DRF's `Invalid pk "<id>" - object does not exist.`, so
 * every unknown reference is reported with the body's other errors. Returns what `get` found
 * (undefined when nothing was sent or found), so a rule that needs the record reads it only once.
 * `get` may return the record or, for a plain existence check, a boolean.
 */
export async function lookUpReferenced<Id, T>(
  errors: FieldErrorCollector,
  field: string,
  id: Id | null | undefined,
  get: (id: Id) => Promise<T | undefined | false>,
): Promise<T | undefined> {
  if (id === undefined || id === null) return undefined
  const found = await get(id)
  if (found === undefined || found === false) {
    errors.add(field, messages.doesNotExist(id))
    return undefined
  }
  return found
}

import { CATALOG } from './catalog.ts'
import { CHECK_INS_AND_SALES } from './check-ins-and-sales.ts'
import { CUSTOMERS } from './customers.ts'
import { EVENT_TYPES } from './event-types.ts'
import { EVENTS } from './events.ts'
import { HOLDINGS } from './holdings.ts'
import { ORGANIZATION } from './organization.ts'
import { WALLS } from './walls.ts'
import type { Collection } from './writing.ts'

export { settleDerivedColumns } from './check-ins-and-sales.ts'
export { RecordRefused, type Collection, type Rec, type WriteContext } from './writing.ts'

/**
 * Every collection `belay import` copies, in an order that satisfies the foreign keys, and how each
 * API record goes back into its rows (a file per part of the organization): the serializers in
 * src/api/<resource>/serializer.ts read backwards. Links in the records name the source's host:
 * only ids are kept. A record that is already there (same id) is passed over with everything under
 * it, so a page asked twice writes nothing twice.
 */
export const COLLECTIONS: Collection[] = [
  ...ORGANIZATION,
  ...EVENT_TYPES,
  ...WALLS,
  ...CATALOG,
  ...CUSTOMERS,
  ...HOLDINGS,
  ...EVENTS,
  ...CHECK_INS_AND_SALES,
]

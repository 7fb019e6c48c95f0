import type { Database as BunDatabase } from 'bun:sqlite'
import type { Db } from '../../db/connection.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'

/** What a running site needs of the box: its database, both ways, its clock and its log. */
export interface SiteDeps {
  db: Db
  sqlite: BunDatabase
  clock: Clock
  log?: Logger
}

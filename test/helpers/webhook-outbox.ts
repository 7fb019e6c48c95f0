import { afterEach, beforeEach } from 'bun:test'
import { WebhookDispatcher, type DispatcherOptions } from '../../src/core/webhooks/dispatcher.ts'
import { enqueueCheckInEvent } from '../../src/core/webhooks/outbox.ts'
import { openDatabase, type Connection } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { silentLogger } from '../../src/lib/log.ts'
import { START } from './app.ts'
import { checkInEventData, startReceiver, type Receiver } from './webhook-factories.ts'

/** A migrated database (in memory unless `path` names a file), as `belay serve` opens one. */
export async function openMigrated(path = ':memory:'): Promise<Connection> {
  const opened = openDatabase(path)
  await migrateToLatest(opened.db)
  return opened
}

export interface WebhookOutboxSetup {
  connection: Connection
  db: Connection['db']
  sqlite: Connection['sqlite']
  clock: ReturnType<typeof fixedClock>
  receiver: Receiver
  /** A dispatcher on this database and clock; stopped after the test. */
  dispatcher(options?: Partial<DispatcherOptions>): WebhookDispatcher
  /** Stops `dispatcher` after the test too (one built by hand, e.g. on another connection). */
  track(dispatcher: WebhookDispatcher): WebhookDispatcher
  /** One check-in's events, as the check-in transaction writes them, at the clock's now. */
  enqueue(fields?: Parameters<typeof checkInEventData>[0]): void
  events(): ReturnType<typeof listEvents>
  eventRow(id: number): ReturnType<typeof getEvent>
  deliveries(): ReturnType<typeof listDeliveries>
}

const listEvents = (db: Connection['db']) =>
  db.selectFrom('webhook_events').selectAll().orderBy('id').execute()
const getEvent = (db: Connection['db'], id: number) =>
  db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const listDeliveries = (db: Connection['db']) =>
  db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute()

/**
 * For the outbox and dispatcher tests: before each test a fresh database, a fixed clock at START and
 * a real receiver; after it, every dispatcher stopped, the receiver and the database closed. Read
 * the returned object inside tests only (it is filled in before each).
 */
export function useWebhookOutbox(): WebhookOutboxSetup {
  const w = {} as WebhookOutboxSetup
  const dispatchers: WebhookDispatcher[] = []
  beforeEach(async () => {
    const connection = await openMigrated()
    const clock = fixedClock(START)
    Object.assign(w, {
      connection,
      db: connection.db,
      sqlite: connection.sqlite,
      clock,
      receiver: startReceiver(),
      track(dispatcher: WebhookDispatcher) {
        dispatchers.push(dispatcher)
        return dispatcher
      },
      dispatcher: (options: Partial<DispatcherOptions> = {}) =>
        w.track(
          new WebhookDispatcher({
            db: connection.db,
            sqlite: connection.sqlite,
            clock,
            log: silentLogger,
            ...options,
          }),
        ),
      enqueue: (fields: Parameters<typeof checkInEventData>[0] = {}) =>
        connection.sqlite.transaction(() =>
          enqueueCheckInEvent(connection.sqlite, checkInEventData(fields), clock.now().toISOString()),
        )(),
      events: () => listEvents(connection.db),
      eventRow: (id: number) => getEvent(connection.db, id),
      deliveries: () => listDeliveries(connection.db),
    })
  })
  afterEach(async () => {
    for (const dispatcher of dispatchers.splice(0)) await dispatcher.stop()
    w.receiver.stop()
    await w.connection.close()
  })
  return w
}

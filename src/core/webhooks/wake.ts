import type { Database as BunDatabase } from 'bun:sqlite'

/**
 * Lets a dispatcher hear that its database's outbox got work (a check-in's event, a redelivery), so
 * it sends at once instead of at its next poll. Keyed by the connection, so two databases in one
 * process (tests) never wake each other's dispatcher. Listeners run on a later turn of the event
 * loop: the enqueueing transaction has committed (or rolled back) by then.
 */
const listeners = new WeakMap<BunDatabase, Set<() => void>>()
/** Connections with a wake-up already on its way: a burst of check-ins makes one, not thousands. */
const scheduled = new WeakSet<BunDatabase>()

export function onOutboxWork(sqlite: BunDatabase, listener: () => void): () => void {
  let set = listeners.get(sqlite)
  if (!set) listeners.set(sqlite, (set = new Set()))
  set.add(listener)
  return () => set.delete(listener)
}

export function notifyOutbox(sqlite: BunDatabase): void {
  const set = listeners.get(sqlite)
  if (!set || set.size === 0 || scheduled.has(sqlite)) return
  scheduled.add(sqlite)
  setTimeout(() => {
    scheduled.delete(sqlite)
    for (const listener of set) listener()
  }, 0)
}

/** Every read of "now" goes through a Clock so tests can fix time and move it. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock for tests: starts at `start` and moves only when told. */
export function fixedClock(
  start: Date | string,
): Clock & { set(t: Date | string): void; advance(ms: number): void } {
  let current = new Date(start)
  return {
    now: () => new Date(current),
    set: (t) => {
      current = new Date(t)
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms)
    },
  }
}

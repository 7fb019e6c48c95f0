/**
 * A hybrid logical clock (Kulkarni et al., 2014): wall-clock milliseconds with a counter, moved
 * forward past every timestamp received. Two boxes' timestamps order their edits close to real
 * time, yet a box whose clock is hours ahead cannot win every later edit for ever: once its changes
 * arrive, every box's clock is past them, and the next local edit is newer still.
 *
 * A timestamp is written as text that sorts as it compares: 15 digits of milliseconds since the
 * epoch (enough until the year 33658), a dash, 6 digits of counter. SQLite compares them as text.
 */
export type HlcTimestamp = string

export interface Hlc {
  /** A timestamp for a local change, after every timestamp this clock issued or received. */
  now(): HlcTimestamp
  /** Moves the clock past a timestamp received from elsewhere. */
  receive(timestamp: HlcTimestamp): void
  /** The last timestamp issued or received: kept so a restart carries on after it. */
  last(): HlcTimestamp
}

const MS_DIGITS = 15
const COUNTER_DIGITS = 6
const MAX_COUNTER = 10 ** COUNTER_DIGITS - 1

export const ZERO_HLC: HlcTimestamp = formatHlc(0, 0)

export function formatHlc(ms: number, counter: number): HlcTimestamp {
  return `${String(ms).padStart(MS_DIGITS, '0')}-${String(counter).padStart(COUNTER_DIGITS, '0')}`
}

export function parseHlc(timestamp: HlcTimestamp): { ms: number; counter: number } {
  const match = /^(\d{15})-(\d{6})$/.exec(timestamp)
  if (!match) throw new Error(`not a hybrid logical clock timestamp: ${JSON.stringify(timestamp)}`)
  return { ms: Number(match[1]), counter: Number(match[2]) }
}

/** A clock reading `wallMs` for the time of day, carrying on after `after` (the last one kept). */
export function hybridLogicalClock(wallMs: () => number, after: HlcTimestamp = ZERO_HLC): Hlc {
  let { ms, counter } = parseHlc(after)
  return {
    now() {
      const wall = wallMs()
      if (wall > ms) {
        ms = wall
        counter = 0
      } else if (counter < MAX_COUNTER) {
        counter += 1
      } else {
        // A million timestamps in one millisecond: borrow the next millisecond, never overflow.
        ms += 1
        counter = 0
      }
      return formatHlc(ms, counter)
    },
    receive(timestamp) {
      const other = parseHlc(timestamp)
      if (other.ms > ms || (other.ms === ms && other.counter > counter)) {
        ms = other.ms
        counter = other.counter
      }
    },
    last: () => formatHlc(ms, counter),
  }
}

import { ENTRY_METHODS } from '../db/tables/door.ts'

/** The entry methods, numbered by their place in this list for the visit log's byte column. */
export { ENTRY_METHODS }
export type MethodCode = number

export const MEM = 0
export const ENT = 1
export const EVE = 2
export const GUE = 3
export const FRE = 4
export const MIG = 5

/** Why staff let someone in free: first the trial visits before joining, then the rest. */
export const FREE_ENTRY_REASONS = [
  'Trial climb before joining',
  'First visit',
  'Friend of staff',
  'Birthday climb',
  'Make-up for a cancelled class',
] as const

/** One visit as the generators describe it; the log keeps it in columns. */
export interface Visit {
  ms: number
  /** The gym-local day of `ms` */
  day: number
  customerId: number
  method: MethodCode
  gymIndex: number
  /** MEM and GUE: the customer membership; ENT: the pass; EVE: the reservation; FRE: the reason */
  ref: number
  /** GUE: the host customer */
  hostId: number
}

const INDEX_BITS = 22
const INDEX_LIMIT = 2 ** INDEX_BITS

/**
 * The large set's million and a half visits as typed columns rather than objects, so they take
 * tens of megabytes until their rows are written a batch at a time.
 */
export class VisitLog {
  count = 0
  ms = new Float64Array(1 << 16)
  day = new Int32Array(1 << 16)
  customerId = new Int32Array(1 << 16)
  method = new Uint8Array(1 << 16)
  gymIndex = new Uint8Array(1 << 16)
  ref = new Int32Array(1 << 16)
  hostId = new Int32Array(1 << 16)

  add(visit: Visit): void {
    if (this.count === this.ms.length) this.grow()
    const i = this.count++
    this.ms[i] = visit.ms
    this.day[i] = visit.day
    this.customerId[i] = visit.customerId
    this.method[i] = visit.method
    this.gymIndex[i] = visit.gymIndex
    this.ref[i] = visit.ref
    this.hostId[i] = visit.hostId
  }

  /**
   * The visits' indexes in time order (ties in the order they were logged): each time in whole
   * seconds and the index packed into one number, so a numeric typed-array sort does it without a
   * comparison callback.
   */
  chronological(): Uint32Array {
    if (this.count >= INDEX_LIMIT) throw new Error(`the check-in log holds at most ${INDEX_LIMIT - 1} visits`)
    const keys = new Float64Array(this.count)
    for (let i = 0; i < this.count; i++) keys[i] = Math.floor(this.ms[i]! / 1000) * INDEX_LIMIT + i
    keys.sort()
    const order = new Uint32Array(this.count)
    for (let i = 0; i < this.count; i++) order[i] = keys[i]! % INDEX_LIMIT
    return order
  }

  private grow(): void {
    const size = this.ms.length * 2
    const grown = <A extends Float64Array | Int32Array | Uint8Array>(from: A, to: A): A => {
      to.set(from)
      return to
    }
    this.ms = grown(this.ms, new Float64Array(size))
    this.day = grown(this.day, new Int32Array(size))
    this.customerId = grown(this.customerId, new Int32Array(size))
    this.method = grown(this.method, new Uint8Array(size))
    this.gymIndex = grown(this.gymIndex, new Uint8Array(size))
    this.ref = grown(this.ref, new Int32Array(size))
    this.hostId = grown(this.hostId, new Int32Array(size))
  }
}

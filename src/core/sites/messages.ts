import type { Change } from './changes.ts'

/*
 * How changes travel: packed into the hub's messages, each at most a given size. Several changes
 * share a message (a busy door's check-ins cost the hub one publish, and every site one delivery,
 * for many of them), and a change larger than a message (an import of thousands of customers in one
 * transaction, a scanned document of megabytes in one row) is cut into parts, sent in order, and
 * applied once its last part has come: whole.
 *
 * A message's id (the hub's deduplication) names the outbox rows it holds, and a part its place
 * among the parts, so a message sent again after a crash is either the same message, acked as a
 * duplicate, or another one holding changes applied already, which every site passes over.
 */

/** Headers every message carries; a box refuses a message whose subject and site header disagree. */
export const SITE_HEADER = 'Belay-Site'
export const LEVEL_HEADER = 'Belay-Level'

/** A change as it travels: without the outbox bookkeeping. */
export type TravellingChange = Omit<Change, 'lastSeq'>

/** What one message holds: whole changes, in order, or one part of a change too large for one. */
export type MessageBody = { changes: TravellingChange[] } | ChangePart

/** One of the `parts` slices of a change's JSON (its bytes in base64), numbered from 0. */
export interface ChangePart {
  part: number
  parts: number
  /** The change's sequence at its site: the parts of one change share it. */
  seq: number
  bytes: string
}

export interface OutgoingMessage {
  /** The message's id among the site's messages (the hub's deduplication). */
  id: string
  payload: Uint8Array
  /** The last outbox row the message holds, or null for a part before the last. */
  completesThrough: number | null
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * `changes` (in outbox order) packed into messages of at most `maxBytes` each: consecutive whole
 * changes together, and a change that does not fit one message alone, cut into parts.
 */
export function packChanges(changes: Change[], maxBytes: number): OutgoingMessage[] {
  const messages: OutgoingMessage[] = []
  let pending: { change: Change; json: string }[] = []
  let pendingBytes = 0
  const overhead = encoder.encode('{"changes":[]}').length
  const flush = () => {
    if (pending.length === 0) return
    const first = pending[0]!.change
    const last = pending.at(-1)!.change
    messages.push({
      id: `${first.seq}-${last.lastSeq}`,
      payload: encoder.encode(`{"changes":[${pending.map((p) => p.json).join(',')}]}`),
      completesThrough: last.lastSeq,
    })
    pending = []
    pendingBytes = 0
  }
  for (const change of changes) {
    const json = JSON.stringify(travelling(change))
    const bytes = byteLength(json) + 1
    if (overhead + bytes > maxBytes) {
      flush()
      messages.push(...cutIntoParts(change, json, maxBytes))
      continue
    }
    if (overhead + pendingBytes + bytes > maxBytes) flush()
    pending.push({ change, json })
    pendingBytes += bytes
  }
  flush()
  return messages
}

/**
 * A change's JSON cut into slices that each fit a message as base64, whatever it holds: thousands of
 * rows, or one row larger than a message.
 */
function cutIntoParts(change: Change, changeJson: string, maxBytes: number): OutgoingMessage[] {
  const json = encoder.encode(changeJson)
  const overhead = byteLength(JSON.stringify({ part: 0, parts: 0, seq: change.seq, bytes: '' })) + 32
  const sliceBytes = Math.max(1, Math.floor(((maxBytes - overhead) * 3) / 4))
  const parts = Math.ceil(json.length / sliceBytes)
  return Array.from({ length: parts }, (_, part) => {
    const bytes = Buffer.from(json.subarray(part * sliceBytes, (part + 1) * sliceBytes)).toString('base64')
    const body: ChangePart = { part, parts, seq: change.seq, bytes }
    return {
      id: `${change.seq}-${change.lastSeq}.${part + 1}/${parts}`,
      payload: encoder.encode(JSON.stringify(body)),
      completesThrough: part === parts - 1 ? change.lastSeq : null,
    }
  })
}

/** A message's body; a bare change, as the first sites sent one a message, reads as one change. */
export function unpackMessage(payload: Uint8Array): MessageBody {
  const body = JSON.parse(decoder.decode(payload)) as MessageBody | TravellingChange
  return 'changes' in body || 'part' in body ? body : { changes: [body] }
}

/** A change as it arrived (its outbox bookkeeping is its site's own: one sequence stands for it). */
export const arrived = (change: TravellingChange): Change => ({ ...change, lastSeq: change.seq })

interface Waiting {
  seq: number
  /** Each part's bytes, in order. */
  slices: readonly string[]
  /** The stream sequence its first part came at: the position may not pass it. */
  streamSequence: number
}

/**
 * The parts of changes too large for one message, kept until their last part comes, one change at
 * a time for each site (a site sends a change's parts before anything else of its own). Never
 * changed in place: taking a part gives the parts after it, so an apply that fails leaves the
 * parts as they were before it.
 */
export class PartsInWaiting {
  readonly #waiting: ReadonlyMap<string, Waiting>

  constructor(waiting: ReadonlyMap<string, Waiting> = new Map()) {
    this.#waiting = waiting
  }

  /**
   * The part of `site`'s that came at `streamSequence` taken: the parts after it, and the whole
   * change once this was its last part (otherwise null). A first part starts the change again (its
   * site sent it again); a part that does not follow the one before belongs to a change whose start
   * this box never saw, and is answered 'out of order'.
   */
  take(
    site: string,
    body: ChangePart,
    streamSequence: number,
  ): { after: PartsInWaiting; whole: Change | null | 'out of order' } {
    const { part, parts, seq } = body
    const before = part === 0 ? { seq, slices: [], streamSequence } : this.#waiting.get(site)
    if (!before || before.seq !== seq || before.slices.length !== part)
      return { after: this, whole: 'out of order' }
    const waiting = new Map(this.#waiting)
    const slices = [...before.slices, body.bytes]
    if (slices.length < parts) {
      waiting.set(site, { ...before, slices })
      return { after: new PartsInWaiting(waiting), whole: null }
    }
    waiting.delete(site)
    const json = Buffer.concat(slices.map((slice) => Buffer.from(slice, 'base64'))).toString('utf8')
    return { after: new PartsInWaiting(waiting), whole: arrived(JSON.parse(json) as TravellingChange) }
  }

  /** The stream sequence of the earliest first part still waiting for its last, or null. */
  earliest(): number | null {
    let earliest: number | null = null
    for (const { streamSequence } of this.#waiting.values())
      if (earliest === null || streamSequence < earliest) earliest = streamSequence
    return earliest
  }
}

function travelling(change: Change): TravellingChange {
  const { lastSeq: _, ...rest } = change
  return rest
}

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8')

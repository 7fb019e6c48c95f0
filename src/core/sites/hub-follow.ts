import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream'
import { nanos } from '@nats-io/transport-node'
import type { HubLink } from './hub-link.ts'
import { HubRefusal, type Follower, type FollowOptions, type StreamMessage } from './hub-types.ts'

const SECOND = 1000

export const FOLLOW_DEFAULTS = { retryDelayMs: SECOND, batch: 256, applyBatch: 16, stallCheckMs: 10 * SECOND }

/**
 * How long the hub waits for an ack before handing a message out again. The follower never relies
 * on it (it starts again from its own position after any failure), so it is long: a redelivery
 * only costs a skip.
 */
const ACK_WAIT_MS = 5 * 60 * SECOND

/**
 * Waits `ms` and settles with QUIET, unless cancelled first (the next message came). A consumer's
 * pull can be lost on a link cut and not asked again (the client re-pulls on reconnect only when
 * the hub answers its check then), and the hub then hands out nothing while changes wait: the
 * follower notices by asking the hub itself.
 */
const QUIET = Symbol('quiet')
function quietFor(ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined
  const settled = new Promise<typeof QUIET>((resolve) => {
    timer = setTimeout(() => resolve(QUIET), ms)
  })
  return { settled, cancel: () => clearTimeout(timer) }
}

const NOTHING_RECEIVED = Symbol('nothing received')
/** Settles after the microtasks queued now, and the I/O callbacks due, have run. */
const nothingReceived = () =>
  new Promise<typeof NOTHING_RECEIVED>((resolve) => setImmediate(() => resolve(NOTHING_RECEIVED)))

/**
 * Follows the stream for hub.ts's follow(). The position that counts is the caller's: the next
 * stream sequence it has not applied, which it commits with each applied change. The durable
 * consumer only carries that position between runs, so whenever the two could disagree (a crash
 * between commit and ack, messages handed out and never acked, a database restored from a backup)
 * the consumer is made again at the caller's position. Within a run each message must be exactly
 * the next sequence: an older one was applied already (acked and skipped), and a newer one means
 * one was lost on the way (following starts again from the due one). So changes are applied in
 * stream order, each once, whatever the hub redelivers.
 *
 * Messages already received are handed to `apply` together, up to `applyBatch` of them, so that a
 * backlog is applied several changes to a commit (a commit's page writes cost more than a change's
 * statements) while one call still holds the thread only briefly. A call that throws is taken as
 * applying none of them: following starts again from its first.
 */
export function follow(
  link: HubLink,
  fromStreamSequence: number,
  apply: (messages: StreamMessage[]) => Promise<void>,
  options: FollowOptions = {},
): Follower {
  if (!Number.isSafeInteger(fromStreamSequence) || fromStreamSequence < 1)
    throw new RangeError(`invalid stream sequence ${fromStreamSequence}`)
  const retryDelayMs = options.retryDelayMs ?? FOLLOW_DEFAULTS.retryDelayMs
  const batch = options.batch ?? FOLLOW_DEFAULTS.batch
  const applyBatch = options.applyBatch ?? FOLLOW_DEFAULTS.applyBatch
  const stallCheckMs = options.stallCheckMs ?? FOLLOW_DEFAULTS.stallCheckMs
  const stopRequested = Promise.withResolvers<void>()
  let stopping = false
  let messages: ConsumerMessages | null = null

  /**
   * Waits for the link, places the consumer and starts consuming. A stop meanwhile does not wait
   * for the hub to answer: the opening goes on alone and what it opens is closed at once.
   */
  async function openMessages(next: number): Promise<ConsumerMessages | null> {
    const opening = (async () => {
      await link.untilReachable()
      const { js, jsm } = await link.resources()
      await placeConsumer(jsm, link, next, batch)
      const consumer = await js.consumers.get(link.names.stream, link.site)
      // Missing the consumer (deleted on the hub) ends the iteration, and the loop makes it again.
      return consumer.consume({ max_messages: batch, abort_on_missing_resource: true })
    })()
    opening.then(
      (opened) => {
        if (stopping) void opened.close()
      },
      () => {},
    )
    return Promise.race([opening, stopRequested.promise.then(() => null)])
  }

  async function run(): Promise<HubRefusal | null> {
    /** The first sequence not applied yet. */
    let next = fromStreamSequence
    while (!stopping) {
      try {
        messages = await openMessages(next)
        if (!messages || stopping) break
        const ready: { message: JsMsg; change: StreamMessage }[] = []
        const applyReady = async () => {
          await apply(ready.map(({ change }) => change))
          for (const { message } of ready) message.ack()
          next += ready.length
          ready.length = 0
        }
        const iterator = messages[Symbol.asyncIterator]()
        let pending: Promise<IteratorResult<JsMsg>> | null = null
        /** Whether the last ask found a change due that has not come since. */
        let dueAtLastAsk = false
        while (!stopping) {
          pending ??= iterator.next()
          let result: IteratorResult<JsMsg> | typeof NOTHING_RECEIVED | typeof QUIET
          if (ready.length === 0) {
            const quiet = quietFor(stallCheckMs)
            result = await Promise.race([pending, quiet.settled])
            quiet.cancel()
          }
          // With messages in hand, the next is taken into this call only if it has been received
          // already: a received one comes within the microtasks that run before setImmediate.
          else result = await Promise.race([pending, nothingReceived()])
          if (result === NOTHING_RECEIVED) {
            await applyReady()
            continue
          }
          if (result === QUIET) {
            const due = await changeDue(link, next)
            if (due && dueAtLastAsk)
              throw new Error(
                `the hub handed out nothing for ${stallCheckMs * 2} ms while change ${next} was due`,
              )
            dueAtLastAsk = due
            continue
          }
          dueAtLastAsk = false
          pending = null
          if (result.done) break
          const message = result.value
          const streamSequence = message.info.streamSequence
          const due = next + ready.length
          if (streamSequence < due) {
            message.ack()
            continue
          }
          if (streamSequence > due)
            throw new Error(`the hub handed out change ${streamSequence} while ${due} was due`)
          ready.push({ message, change: streamMessage(message, streamSequence) })
          if (ready.length >= applyBatch) await applyReady()
        }
        if (!stopping) throw new Error('the hub ended the consumer')
      } catch (error) {
        if (error instanceof HubRefusal) return error
        if (stopping) break
        options.onError?.(error instanceof Error ? error : new Error(String(error)))
        await Promise.race([Bun.sleep(retryDelayMs), stopRequested.promise])
      } finally {
        await closeMessages()
      }
    }
    // The acks reach the hub before stop() returns, so the next run finds the consumer where it left.
    await link.flush().catch(() => {})
    return null
  }

  async function closeMessages(): Promise<void> {
    const closing = messages
    messages = null
    await closing?.close().catch(() => {})
  }

  const ended = run()
  return {
    ended,
    async stop() {
      stopping = true
      stopRequested.resolve()
      await closeMessages()
      await ended
    },
  }
}

/** Whether the stream holds change `next` (false while the hub cannot be asked: the link recovers). */
async function changeDue(link: HubLink, next: number): Promise<boolean> {
  try {
    const { jsm } = await link.resources()
    const { state } = await jsm.streams.info(link.names.stream)
    return state.last_seq >= next
  } catch {
    return false
  }
}

/**
 * Makes sure the site's durable consumer hands out `next` first. It is kept when its state says
 * exactly that (everything before `next` acked, nothing handed out after); otherwise it is made
 * again at `next`. Refuses a position the stream cannot serve: changes it no longer keeps, or a
 * stream shorter than what this site applied (another hub, or a stream made again).
 */
async function placeConsumer(
  jsm: JetStreamManager,
  link: HubLink,
  next: number,
  batch: number,
): Promise<void> {
  const { stream } = link.names
  const { state } = await jsm.streams.info(stream)
  const firstKept = state.messages === 0 ? state.last_seq + 1 : state.first_seq
  if (next > state.last_seq + 1)
    throw new HubRefusal(
      'stream_behind_site',
      `site ${link.site} has applied changes up to ${next - 1} but the hub's stream ${stream} ends at ${state.last_seq}`,
    )
  if (next < firstKept)
    throw new HubRefusal(
      'changes_no_longer_kept',
      `the hub no longer keeps changes ${next} to ${firstKept - 1} of ${stream}, which site ${link.site} has not applied: join again from a snapshot`,
    )

  let existing = null
  try {
    existing = await jsm.consumers.info(stream, link.site)
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound))
      throw error
  }
  if (
    existing &&
    existing.ack_floor.stream_seq === next - 1 &&
    existing.delivered.stream_seq === next - 1 &&
    existing.config.max_ack_pending === batch
  )
    return
  if (existing) await jsm.consumers.delete(stream, link.site)
  await jsm.consumers.add(stream, {
    durable_name: link.site,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: next,
    ack_wait: nanos(ACK_WAIT_MS),
    // The hub hands out at most one batch ahead of the last ack.
    max_ack_pending: batch,
  })
}

function streamMessage(message: JsMsg, streamSequence: number): StreamMessage {
  const headers: Record<string, string> = {}
  for (const name of message.headers?.keys() ?? []) headers[name] = message.headers!.get(name)
  return {
    streamSequence,
    site: message.subject.slice(message.subject.lastIndexOf('.') + 1),
    subject: message.subject,
    headers,
    payload: message.data,
  }
}

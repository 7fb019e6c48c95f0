import { prepared } from '../../db/statements.ts'
import { syncTransaction } from '../../db/sync-transaction.ts'
import { applyChange, type ApplyContext } from './apply.ts'
import type { AttachedSite } from './attach.ts'
import type { Bookkeeping } from './bookkeeping.ts'
import type { Change } from './changes.ts'
import type { StreamMessage } from './hub-types.ts'
import { arrived, PartsInWaiting, SITE_HEADER, unpackMessage } from './messages.ts'
import type { SiteDeps } from './site-deps.ts'

/*
 * Applying: the stream's messages, as the site follows it, made here in stream order: other
 * sites' changes applied (apply.ts), this site's own passed over. A backlog yields to the door:
 * each commit is one short write in group commit's background lane (never in one batch with the
 * door's scans, and after them when both wait), and after each the applier leaves the thread free
 * for as long as the commit held it.
 */

/**
 * What one commit applies at most: APPLY_CHANGES changes, and no more once it has spent
 * APPLY_BUDGET_MS (it takes one change at least, however long). A scan that comes while an apply
 * commit runs waits for it, so these bound what a backlog adds to the door's answer. A check-in is
 * some 200 µs to apply, a sale or a sign-up several rows more: with 16 changes a commit and no
 * budget, the catch-up of test/bench/sites.ts (phase 3) made commits of up to 20 ms.
 */
const APPLY_CHANGES = 16
const APPLY_BUDGET_MS = 4

/*
 * Resting between commits: a catch-up is a long run of commits, and on the door's box they share
 * the CPU with the door's scans, the JIT's threads and the WAL's checkpoints. So after each commit
 * the applier leaves the thread free for as long as the commit held it (the fsync it waits for
 * counts as free): a backlog takes at most half the thread. With its box on one CPU
 * (test/bench/sites.ts, phase 3), seven runs in alternation, the door's p99 during a catch-up was
 * lower resting in each: 15.9 to 18.1 ms against 18.7 to 22.6 in four, 10.4 to 36.4 against 13.7
 * to 53.3 in three on a noisier host.
 */

/** Where a message of the stream ends: the position past it, and the parts waiting there. */
interface MessageEnd {
  streamSequence: number
  partsAfter: PartsInWaiting
}

/** What applying a message comes to: each of its whole changes, then its end. */
type Step = { change: Change } | { end: MessageEnd }

export class Applier {
  /** The last stream sequence applied or passed over. */
  position: number
  /** Why applying stopped (a change from a newer schema level), or null. */
  stopped: string | null = null
  /** Parts of another site's change too large for one message, until its last part comes. */
  #parts = new PartsInWaiting()
  /** When the next commit may start (`performance.now()`): the last one's end, plus its length. */
  #restUntil = 0

  constructor(
    private readonly deps: SiteDeps,
    private readonly site: AttachedSite,
    private readonly bookkeeping: Bookkeeping,
    position: number,
  ) {
    this.position = position
  }

  /**
   * How far the position may be written: not past a change some of whose parts have come but not
   * its last, so that a box restarted gets them all again.
   */
  writablePosition(position = this.position, parts = this.#parts): number {
    const earliest = parts.earliest()
    return earliest === null ? position : Math.min(position, earliest - 1)
  }

  /**
   * The next messages of the stream: other sites' changes applied, this site's own passed over,
   * and the position moved past the last message whose changes are all applied, with the
   * bookkeeping. A commit applies at most APPLY_CHANGES changes, or APPLY_BUDGET_MS of them (a
   * message may hold many), so the door waits for one short commit at most. Messages that are all
   * this site's own only move the position, written with the bookkeeping later. A change from a
   * newer schema level stops it there: those before it are kept, and applying stops until the box
   * is upgraded.
   */
  async apply(messages: StreamMessage[]): Promise<void> {
    if (this.stopped) throw new Error(this.stopped)
    for (const message of messages) {
      const origin = message.headers[SITE_HEADER]
      if (origin !== message.site)
        throw new Error(`a change on ${message.subject} says it is from site ${origin}: refused`)
    }
    if (messages.every((message) => message.site === this.site.site)) {
      this.position = messages.at(-1)!.streamSequence
      return
    }
    const context = {
      sqlite: this.site.sqlite,
      tables: this.site.tables,
      level: this.site.level,
      now: this.deps.clock.now().toISOString(),
    }
    const steps = this.#stepsOf(messages)
    let newer: Change | null = null
    for (let start = 0; start < steps.length && !newer;) {
      const rest = this.#restUntil - performance.now()
      if (rest > 0) await Bun.sleep(rest)
      const commit = await syncTransaction(
        this.deps,
        () => this.#applySome(context, steps, start),
        'background',
      )
      commit.noteWritten()
      if (commit.reached) this.position = Math.max(this.position, commit.reached.streamSequence)
      this.#restUntil = commit.endedAt + commit.heldMs
      newer = commit.newer
      start = commit.stoppedAt
    }
    if (newer) await this.#stop(newer)
    const last = steps.at(-1)
    if (last && 'end' in last) this.#parts = last.end.partsAfter
  }

  /**
   * One commit's work: the steps from `start` applied until the commit is full (see APPLY_CHANGES),
   * with the bookkeeping of the last message end reached. Where it stopped, and why: a change from
   * a newer schema level (`newer`), or the commit full, or the steps done.
   */
  #applySome(context: ApplyContext, steps: readonly Step[], start: number) {
    let applied = 0
    let reached: MessageEnd | null = null
    let newer: Change | null = null
    let index = start
    const began = performance.now()
    const full = () =>
      applied >= APPLY_CHANGES || (applied > 0 && performance.now() - began >= APPLY_BUDGET_MS)
    // The ends of messages come along after the last change a commit takes: nothing to apply.
    for (; index < steps.length && (!full() || 'end' in steps[index]!); index++) {
      const step = steps[index]!
      if ('end' in step) {
        reached = step.end
        continue
      }
      if (step.change.level > this.site.level) {
        newer = step.change
        break
      }
      this.site.clock.receive(step.change.hlc)
      applyChange(context, step.change)
      applied += 1
    }
    const noteWritten = reached
      ? this.bookkeeping.writes(this.writablePosition(reached.streamSequence, reached.partsAfter))
      : () => {}
    const endedAt = performance.now()
    return { stoppedAt: index, reached, newer, noteWritten, endedAt, heldMs: endedAt - began }
  }

  /**
   * What the messages bring to apply, in order: each message's whole changes (a change too large
   * for one message once its last part has come), then its end, with the parts waiting after it.
   */
  #stepsOf(messages: StreamMessage[]): Step[] {
    let parts = this.#parts
    return messages.flatMap((message) => {
      let changes: Change[] = []
      if (message.site !== this.site.site) {
        const body = unpackMessage(message.payload)
        if ('changes' in body) changes = body.changes.map(arrived)
        else {
          const taken = parts.take(message.site, body, message.streamSequence)
          parts = taken.after
          if (taken.whole === 'out of order')
            this.deps.log?.warn('hub: a part of a change whose first part never came, passed over', {
              site: message.site,
              stream_sequence: message.streamSequence,
            })
          else if (taken.whole) changes = [taken.whole]
        }
      }
      return [
        ...changes.map((change) => ({ change })),
        { end: { streamSequence: message.streamSequence, partsAfter: parts } },
      ]
    })
  }

  async #stop(newer: Change): Promise<never> {
    const reason = `a change from site ${newer.site} needs schema level ${newer.level}; this box is at ${this.site.level}: upgrade it`
    this.stopped = reason
    await syncTransaction(this.deps, () =>
      prepared(this.site.sqlite, 'UPDATE sync_state SET stopped_reason = ? WHERE id = 1').run(reason),
    )
    throw new Error(reason)
  }
}

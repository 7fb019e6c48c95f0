import type { Database as BunDatabase } from 'bun:sqlite'
import { prepared } from '../../db/statements.ts'
import { syncTransaction } from '../../db/sync-transaction.ts'
import type { SiteDeps } from './site-deps.ts'
import { forgetSent } from './changes.ts'

/*
 * What only records a site's progress: the outbox rows the hub has acknowledged (deleted), and the
 * stream position past what was applied or passed over (sync_state.applied_stream_sequence).
 * Neither is worth a commit of its own beside every check-in, so both are kept in memory and
 * written with the next apply's commit, or once a second (site.ts). A crash before the write only
 * costs sending again what the hub already has (a duplicate to it, "already applied" everywhere)
 * and passing over this site's own changes again.
 */
export class Bookkeeping {
  /** The last outbox row the hub has acknowledged (the publisher moves it). */
  acknowledgedThrough = 0
  #forgottenThrough = 0
  #writtenPosition: number

  constructor(
    private readonly sqlite: BunDatabase,
    writtenPosition: number,
  ) {
    this.#writtenPosition = writtenPosition
  }

  /**
   * The statements, in the caller's write transaction, writing `position` as the stream position;
   * what it answers notes them written, once that transaction has committed.
   */
  writes(position: number): () => void {
    const acknowledged = this.acknowledgedThrough
    if (acknowledged > this.#forgottenThrough) forgetSent(this.sqlite, { lastSeq: acknowledged })
    if (position > this.#writtenPosition)
      prepared(this.sqlite, 'UPDATE sync_state SET applied_stream_sequence = ? WHERE id = 1').run(position)
    return () => {
      this.#forgottenThrough = Math.max(this.#forgottenThrough, acknowledged)
      this.#writtenPosition = Math.max(this.#writtenPosition, position)
    }
  }

  /** Writes what is not written yet, `position` as the stream position, in a commit of its own. */
  async write(deps: SiteDeps, position: number): Promise<void> {
    if (this.acknowledgedThrough === this.#forgottenThrough && position === this.#writtenPosition) return
    const noteWritten = await syncTransaction(deps, () => this.writes(position))
    noteWritten()
  }
}

/**
 * A child process for test/db/checkpointer.test.ts: opens the file database named by argv[2] as
 * `belay serve` does (automatic checkpoint off, the checkpoint worker on, every 5 ms), then commits
 * one row at a time for ever, printing each row's id on stdout once its commit has returned (the
 * acknowledgement). The test kills it with SIGKILL and looks for every acknowledged row.
 */
import { startCheckpointer } from '../../src/db/checkpointer.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { silentLogger } from '../../src/lib/log.ts'

const path = process.argv[2]!
const connection = openDatabase(path)
connection.sqlite.run('CREATE TABLE IF NOT EXISTS acked (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
await startCheckpointer(path, connection.sqlite, silentLogger, { intervalMs: 5 })
const insert = connection.sqlite.prepare('INSERT INTO acked (body) VALUES (?) RETURNING id')
const body = 'x'.repeat(1500)
for (let i = 0; ; i++) {
  const { id } = insert.get(body) as { id: number }
  process.stdout.write(`${id}\n`)
  // Gaps now and then, as between door scans, so the checkpoints also complete and restart the WAL.
  if (i % 50 === 49) await Bun.sleep(1)
}

/**
 * The worker threads of `belay serve` from the built executable, started from an empty directory:
 * the reader (src/db/reader.ts) and the WAL checkpointer (src/db/checkpointer.ts) are embedded
 * entrypoints that must be found inside the executable, not on disk. Each holds its own connection
 * to the file, which /proc shows: the serving connection and the checkpointer's read-write, the
 * reader's read-only. The members report served through the reader is byte for byte what the app
 * answers with every query on one connection.
 */
import { afterAll, afterEach, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { createApp } from '../../src/app.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { depsFor } from '../helpers/app.ts'
import { getToken, removeTempDirs, request, runBelay, startServer, stopAll, tempDbPath } from './helpers.ts'

afterEach(stopAll)
afterAll(removeTempDirs)

/** The open file descriptors of `pid` on `path`, each with whether it was opened read-only. */
function openOn(pid: number, path: string): { readOnly: boolean }[] {
  const found: { readOnly: boolean }[] = []
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`)
    } catch {
      continue // closed meanwhile
    }
    if (target !== path) continue
    const flags = /flags:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))![1]!
    found.push({ readOnly: (parseInt(flags, 8) & 3) === 0 })
  }
  return found
}

test.skipIf(!existsSync('/proc/self/fd'))(
  'serve runs the reader and the checkpointer from the executable; the members report comes through the reader',
  async () => {
    const db = tempDbPath()
    expect((await runBelay(['seed-demo', '--size', 'small', '--seed', '2', '--db', db])).code).toBe(0)
    const server = await startServer({ db })

    // Three connections to the file: the serving one and the checkpointer's read-write, the reader's
    // read-only.
    const handles = openOn(server.process.pid, db)
    expect(handles.filter((h) => h.readOnly)).toHaveLength(1)
    expect(handles.filter((h) => !h.readOnly)).toHaveLength(2)

    const token = await getToken(server.base, 'admin@granitepeak.example', 'granite-peak-demo')
    const served = await request(server.base, 'GET', '/api/members/?include_billing_info=true', { token })
    expect(served.status).toBe(200)
    expect(served.body.length).toBeGreaterThan(0)

    // The same request answered in this process with every query on one connection to the file.
    const local = openDatabase(db)
    try {
      const app = createApp(depsFor(local, systemClock, { version: 'e2e' }))
      const response = await app.handle(
        new Request(`${server.base}/api/members/?include_billing_info=true`, {
          headers: { authorization: `Token ${token}` },
        }),
      )
      expect(served.text).toBe(await response.text())
    } finally {
      local.sqlite.close()
    }

    // A write goes through the serving connection; the reader sees it at once.
    const customers = await request(server.base, 'GET', '/api/customers/?search=Zyxwvut', { token })
    expect(customers.body.count).toBe(0)
    const created = await request(server.base, 'POST', '/api/customers/', {
      token,
      json: { first_name: 'Ada', last_name: 'Zyxwvut', birthday: '1990-01-02' },
    })
    expect(created.status).toBe(201)
    const found = await request(server.base, 'GET', '/api/customers/?search=Zyxwvut', { token })
    expect(found.body.results.map((c: { id: number }) => c.id)).toEqual([created.body.id])

    // SIGTERM: both threads stop (the server says so last), and the WAL is left empty.
    expect(await server.stop()).toBe(0)
    expect(server.process.logs().map((l) => l.level)).not.toContain('error')
    expect(server.process.logs().at(-1)?.msg).toBe('stopped')
    expect(existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0).toBe(0)
  },
  60_000,
)

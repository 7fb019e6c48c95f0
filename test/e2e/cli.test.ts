/**
 * The executable's command line as an installer or a gym's IT person uses it: help, migrate,
 * create-admin, and a second copy started by mistake on a port already taken.
 */
import { Database } from 'bun:sqlite'
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrations } from '../../migrations/index.ts'
import {
  BELAY,
  getToken,
  removeTempDirs,
  request,
  runBelay,
  spawnBelay,
  startServer,
  stopAll,
  tempDbPath,
  tempDir,
} from './helpers.ts'

const VARIABLES = [
  'BELAY_HOST',
  'BELAY_PORT',
  'BELAY_DB',
  'BELAY_PUBLIC_URL',
  'BELAY_TOKEN_LIFETIME_HOURS',
  'BELAY_SESSION_IDLE_HOURS',
  'BELAY_SESSION_MAX_AGE_HOURS',
  'BELAY_ADMIN_EMAIL',
  'BELAY_ADMIN_PASSWORD',
  'BELAY_GYM_NAME',
  'BELAY_TIME_ZONE',
  'BELAY_HEALTH_MIN_FREE_MB',
  'BELAY_HEALTH_MAX_OUTBOX_AGE_MINUTES',
  'BELAY_BACKUP_DIR',
  'BELAY_BACKUP_INTERVAL',
  'BELAY_BACKUP_KEEP',
  'BELAY_HUB_URL',
  'BELAY_SITE',
  'BELAY_HUB_ORGANIZATION',
  'BELAY_HUB_CREDS',
  'BELAY_HUB_TLS_CA',
  'BELAY_HUB_REPLICAS',
]

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')

afterEach(stopAll)
afterAll(removeTempDirs)

describe('belay --help', () => {
  test('exits 0 and lists the subcommands and every BELAY_* variable', async () => {
    const { code, stdout, stderr } = await runBelay(['--help'])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    for (const command of [
      'serve',
      'migrate [up|status]',
      'create-admin --email EMAIL',
      'backup [--to PATH]',
      'restore PATH',
      'rollup rebuild',
    ]) {
      expect(stdout).toContain(`belay ${command}`)
    }
    for (const variable of VARIABLES) expect(stdout).toContain(`(${variable})`)
  })

  test('each option names its variable, with the description on its own indented line', async () => {
    const { stdout } = await runBelay(['--help'])
    const all = lines(stdout)
    const optionIndexes = all.flatMap((l, i) => (/\(BELAY_\w+\)/.test(l) ? [i] : []))
    expect(optionIndexes).toHaveLength(VARIABLES.length)
    for (const i of optionIndexes) {
      expect(all[i]).toMatch(/^ {2}--[a-z-]+ \(BELAY_[A-Z_]+\)$/)
      expect(all[i + 1]).toMatch(/^ {6}\S/)
    }
  })
})

describe('bad command lines', () => {
  test('an unknown command exits 2 with the reason and the usage on stderr', async () => {
    const { code, stdout, stderr } = await runBelay(['frobnicate'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toStartWith('belay: unknown command frobnicate\n')
    expect(stderr).toContain('Usage:')
  })

  test('an unknown serve option exits 2 without starting', async () => {
    const { code, stderr } = await runBelay(['serve', '--prot', '9000', '--db', tempDbPath()])
    expect(code).toBe(2)
    expect(stderr).toStartWith('belay: unknown option --prot\n')
  })
})

describe('belay migrate', () => {
  test('status on a fresh file lists every migration as pending; migrate applies them; status shows them applied', async () => {
    const db = tempDbPath()
    const names = Object.keys(migrations)

    const before = await runBelay(['migrate', 'status', '--db', db])
    expect(before.code).toBe(0)
    expect(lines(before.stdout)).toEqual(names.map((name) => `pending  ${name}`))

    const up = await runBelay(['migrate', '--db', db])
    expect(up.code).toBe(0)
    expect(lines(up.stdout)).toEqual([`applied: ${names.join(', ')}`])

    // BELAY_DB works as well as --db.
    const after = await runBelay(['migrate', 'status'], { env: { BELAY_DB: db } })
    expect(after.code).toBe(0)
    const status = lines(after.stdout)
    expect(status).toHaveLength(names.length)
    status.forEach((line, i) =>
      expect(line).toMatch(
        new RegExp(`^applied {2}${names[i]} {2}\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}`),
      ),
    )

    const again = await runBelay(['migrate', 'up', '--db', db])
    expect(again.code).toBe(0)
    expect(lines(again.stdout)).toEqual(['up to date'])
  })

  test('an unknown migrate action exits 2', async () => {
    const { code, stderr } = await runBelay(['migrate', 'sideways', '--db', tempDbPath()])
    expect(code).toBe(2)
    expect(stderr).toStartWith('belay: unknown migrate action sideways')
  })
})

describe('belay create-admin', () => {
  test('creates an admin who can log in once the server runs on that file', async () => {
    const db = tempDbPath()
    const created = await runBelay([
      'create-admin',
      '--email',
      'x@y.z',
      '--password',
      'longenough1',
      '--db',
      db,
    ])
    expect(created.code).toBe(0)
    expect(lines(created.stdout)).toEqual(['created admin x@y.z'])
    expect(created.stdout + created.stderr).not.toContain('longenough1')
    // The executable hashes at the full argon2id cost (the in-process tests use a cheap one).
    const stored = new Database(db, { readonly: true })
    const { password_hash } = stored.query('SELECT password_hash FROM staff_users').get() as {
      password_hash: string
    }
    stored.close()
    expect(password_hash).toStartWith('$argon2id$v=19$m=65536,t=2,p=1$')

    const server = await startServer({ db })
    const token = await getToken(server.base, 'x@y.z', 'longenough1')
    const me = await request(server.base, 'GET', '/api/users/?search=x@y.z', { token })
    expect(me.status).toBe(200)
    expect(me.body.results).toHaveLength(1)
    expect(me.body.results[0]).toMatchObject({
      email: 'x@y.z',
      is_active: true,
      is_organization_admin: true,
      has_password: true,
    })

    // While the server runs: another admin without --password gets a generated one, printed once.
    const second = await runBelay(['create-admin', '--email', 'night@y.z', '--db', db])
    expect(second.code).toBe(0)
    const match = /^created admin night@y\.z with password (\S+)$/.exec(lines(second.stdout)[0] ?? '')
    expect(match).not.toBeNull()
    expect(await getToken(server.base, 'night@y.z', match![1]!)).toMatch(/^[0-9a-f]{40}$/)

    // The same email twice is refused.
    const duplicate = await runBelay([
      'create-admin',
      '--email',
      'X@y.z',
      '--password',
      'longenough2',
      '--db',
      db,
    ])
    expect(duplicate.code).not.toBe(0)
    expect(await getToken(server.base, 'x@y.z', 'longenough1')).toMatch(/^[0-9a-f]{40}$/)
  })

  test('a too-short password exits non-zero and creates nobody', async () => {
    const db = tempDbPath()
    const { code, stdout, stderr } = await runBelay([
      'create-admin',
      '--email',
      'x@y.z',
      '--password',
      'short',
      '--db',
      db,
    ])
    expect(code).not.toBe(0)
    expect(stdout).toBe('')
    expect(stderr).toContain('at least 8 characters')

    const server = await startServer({ db })
    const refused = await request(server.base, 'POST', '/api/get-token/', {
      json: { username: 'x@y.z', password: 'short' },
    })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] })
  })

  test('without --email it exits 2', async () => {
    const { code, stderr } = await runBelay([
      'create-admin',
      '--password',
      'longenough1',
      '--db',
      tempDbPath(),
    ])
    expect(code).toBe(2)
    expect(stderr).toStartWith('belay: create-admin needs --email')
  })
})

describe('two servers on one port', () => {
  test('the second exits non-zero instead of sharing the port; the first keeps serving', async () => {
    const first = await startServer()
    // Its own database, so that it is the port, not the database in use, that stops it.
    const second = spawnBelay([
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      String(first.port),
      '--db',
      tempDbPath(),
    ])
    const code = await second.waitForExit(10_000)
    expect(code).not.toBe(0)
    expect(second.logs().some((l) => l.msg === 'listening')).toBe(false)
    expect(second.logs().find((l) => l.level === 'error')).toBeDefined()

    for (let i = 0; i < 5; i++) {
      const health = await request(first.base, 'GET', '/healthz')
      expect(health.status).toBe(200)
    }
    expect(first.process.running).toBe(true)
    expect(await first.stop()).toBe(0)
  })
})

const COMMANDS = ['serve', 'migrate', 'create-admin', 'seed-demo', 'backup', 'restore', 'rollup', 'import']

describe('belay COMMAND --help', () => {
  for (const command of COMMANDS) {
    test(`${command} --help exits 0 and prints its usage`, async () => {
      const { code, stdout, stderr } = await runBelay([command, '--help'])
      expect(code).toBe(0)
      expect(stderr).toBe('')
      expect(stdout).toStartWith(`Usage: belay ${command}`)
      expect(stdout).toContain('--db (BELAY_DB)')
    })
  }

  test('-h works too, after other options, and starts nothing', async () => {
    const db = tempDbPath()
    const { code, stdout } = await runBelay(['serve', '--db', db, '-h'])
    expect(code).toBe(0)
    expect(stdout).toStartWith('Usage: belay serve [options]')
    for (const variable of VARIABLES) expect(stdout).toContain(`(${variable})`)
    expect(await Bun.file(db).exists()).toBe(false)
  })

  test('create-admin and seed-demo --help name their own options', async () => {
    const admin = await runBelay(['create-admin', '--help'])
    expect(admin.stdout).toContain('--email EMAIL')
    expect(admin.stdout).toContain('--password PASSWORD')
    const demo = await runBelay(['seed-demo', '--help'])
    expect(demo.stdout).toContain('--size small|large')
    expect(demo.stdout).toContain('--seed N')
  })
})

/** The one line a command that could not start wrote on stderr (serve's is a JSON log record). */
function onlyLine(stderr: string, serve: boolean): string {
  const all = lines(stderr)
  expect(all).toHaveLength(1)
  expect(stderr).not.toContain('    at ')
  if (!serve) return all[0]!
  const record = JSON.parse(all[0]!)
  expect(record.level).toBe('error')
  return record.msg
}

const serveArgs = (db: string, port = 0) => [
  'serve',
  '--host',
  '127.0.0.1',
  '--port',
  String(port),
  '--db',
  db,
]

describe('one server per database', () => {
  test('a second serve on the same database exits non-zero with one line saying so; the first keeps serving', async () => {
    const first = await startServer()
    const second = await runBelay(serveArgs(first.db))
    expect(second.code).not.toBe(0)
    expect(onlyLine(second.stderr, true)).toBe(
      `the database ${first.db} is already being served by another belay serve: stop that one first (or choose another --db)`,
    )
    expect((await request(first.base, 'GET', '/healthz')).status).toBe(200)
    expect(first.process.running).toBe(true)
    expect(await first.stop()).toBe(0)
  })

  test('after the first is SIGKILLed, a serve on the same database starts at once', async () => {
    const first = await startServer()
    first.process.kill('SIGKILL')
    await first.process.exited
    const again = await startServer({ db: first.db })
    expect((await request(again.base, 'GET', '/healthz')).status).toBe(200)
    expect(await again.stop()).toBe(0)
  })

  test('after a clean stop, a serve on the same database starts', async () => {
    const first = await startServer()
    expect(await first.stop()).toBe(0)
    const again = await startServer({ db: first.db })
    expect(await again.stop()).toBe(0)
  })

  test('while it serves, migrate and seed-demo are refused; migrate status is not', async () => {
    const server = await startServer()
    const refusal = `belay: the database ${server.db} is already being served by another belay serve: stop that one first (or choose another --db)`
    const migrate = await runBelay(['migrate', '--db', server.db])
    expect(migrate.code).toBe(1)
    expect(onlyLine(migrate.stderr, false)).toBe(refusal)
    const seed = await runBelay(['seed-demo', '--size', 'small', '--db', server.db])
    expect(seed.code).toBe(1)
    expect(onlyLine(seed.stderr, false)).toBe(refusal)
    const status = await runBelay(['migrate', 'status', '--db', server.db])
    expect(status.code).toBe(0)
    expect(lines(status.stdout)).toHaveLength(Object.keys(migrations).length)
    expect(lines(status.stdout).every((l) => l.startsWith('applied  '))).toBe(true)
    expect((await request(server.base, 'GET', '/healthz')).status).toBe(200)
    expect(await server.stop()).toBe(0)
  })
})

describe('start-up errors: one readable line, exit non-zero', () => {
  test('a database folder that cannot be created (a file in the way)', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'data'), 'not a folder')
    const db = join(dir, 'data', 'belay.sqlite3')
    const expected = `cannot create the database folder ${join(dir, 'data')} (a file is in the way): create it yourself, or choose another --db`

    const serve = await runBelay(serveArgs(db))
    expect(serve.code).toBe(1)
    expect(onlyLine(serve.stderr, true)).toBe(expected)

    const admin = await runBelay(['create-admin', '--email', 'x@y.z', '--db', db])
    expect(admin.code).toBe(1)
    expect(onlyLine(admin.stderr, false)).toBe(`belay: ${expected}`)
  })

  test('a file that is not a database', async () => {
    const db = join(tempDir(), 'belay.sqlite3')
    writeFileSync(db, 'these are the gym opening hours, not a database\n'.repeat(20))
    const expected = `${db} is not a SQLite database: pass the gym's database with --db, or move this file away`

    const serve = await runBelay(serveArgs(db))
    expect(serve.code).toBe(1)
    expect(onlyLine(serve.stderr, true)).toBe(expected)

    for (const args of [
      ['migrate', '--db', db],
      ['migrate', 'status', '--db', db],
    ]) {
      const run = await runBelay(args)
      expect(run.code).toBe(1)
      expect(onlyLine(run.stderr, false)).toBe(`belay: ${expected}`)
    }
  })

  test('a database upgraded by a newer belay', async () => {
    const db = tempDbPath()
    expect((await runBelay(['migrate', '--db', db])).code).toBe(0)
    const ledger = new Database(db)
    ledger.run("INSERT INTO schema_migrations VALUES ('9999_from_the_future', '2027-01-01T00:00:00.000Z')")
    ledger.close()
    const expected = `the database ${db} was upgraded by a newer belay (it has 9999_from_the_future): run that version or a later one, or restore a backup taken before the upgrade; nothing was changed`

    const serve = await runBelay(serveArgs(db))
    expect(serve.code).toBe(1)
    expect(onlyLine(serve.stderr, true)).toBe(expected)
    for (const args of [
      ['migrate', '--db', db],
      ['create-admin', '--email', 'x@y.z', '--db', db],
    ]) {
      const run = await runBelay(args)
      expect(run.code).toBe(1)
      expect(onlyLine(run.stderr, false)).toBe(`belay: ${expected}`)
    }
    const status = await runBelay(['migrate', 'status', '--db', db])
    expect(status.code).toBe(0)
    expect(status.stdout).toContain('unknown (applied by a newer belay)  9999_from_the_future')
    // Nothing was written: no organization, no staff user.
    const after = new Database(db, { readonly: true })
    expect(after.query('SELECT count(*) AS n FROM staff_users').get()).toEqual({ n: 0 })
    after.close()
  })

  test('a port already in use', async () => {
    const first = await startServer()
    // A database that already has its organization, so the refusal is all the second one says.
    const db = tempDbPath()
    expect((await runBelay(['create-admin', '--email', 'x@y.z', '--db', db])).code).toBe(0)
    const second = await runBelay(serveArgs(db, first.port))
    expect(second.code).toBe(1)
    expect(onlyLine(second.stderr, true)).toBe(
      `port ${first.port} on 127.0.0.1 is already in use: stop the program listening there, or choose another --port`,
    )
    expect((await request(first.base, 'GET', '/healthz')).status).toBe(200)
    expect(await first.stop()).toBe(0)
  })

  test('a read-only database file', async () => {
    const dir = tempDir()
    const db = join(dir, 'belay.sqlite3')
    expect((await runBelay(['create-admin', '--email', 'x@y.z', '--db', db])).code).toBe(0)
    chmodSync(db, 0o444)
    chmodSync(dir, 0o777)
    // root writes a file whatever its mode says: as root, the server runs as nobody instead.
    const asUser =
      process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : []
    const proc = Bun.spawn([...asUser, BELAY, ...serveArgs(db)], { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
    expect(code).toBe(1)
    expect(onlyLine(stderr, true)).toBe(
      `cannot write the database ${db}: let the user running belay write it and its folder ${dir}`,
    )
  })
})

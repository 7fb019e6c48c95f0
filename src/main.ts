#!/usr/bin/env bun
import pkg from '../package.json' with { type: 'json' }
import { organizationToday } from './api/organization/queries.ts'
import { insertUser } from './api/users/queries.ts'
import { ConfigError, loadConfig, settings, type Config } from './config.ts'
import { adminUser, ensureOrganization } from './bootstrap.ts'
import {
  DEMO_ADMIN_EMAIL,
  DEMO_ORGANIZATION,
  DEMO_PASSWORD,
  DemoDataRefused,
  PROFILES,
  seedDemoData,
} from './demo/index.ts'
import { hashSecret, MIN_PASSWORD_LENGTH } from './core/auth/passwords.ts'
import { getUserByEmail } from './core/auth/queries.ts'
import { rebuildMembershipRollup } from './core/membership-rollup/catch-up.ts'
import { backupDatabase, restoreDatabase, snapshotBeforeMigrating } from './backup-commands.ts'
import { openDatabase } from './db/connection.ts'
import { migrateToLatest, migrationStatus } from './db/migrator.ts'
import { lockForServing } from './db/serve-lock.ts'
import { systemClock } from './lib/clock.ts'
import { consoleLogger as log } from './lib/log.ts'
import { newPassword } from './lib/secrets.ts'
import { startServing } from './serve.ts'
import { checkWritable, databaseError, StartupError } from './lib/startup-errors.ts'

const usage = `belay ${pkg.version}: the climbing-gym appliance

Usage:
  belay serve [options]                 migrate, create the organization on first start, serve the API
  belay migrate [up|status] [--db FILE] apply pending migrations, or list them
  belay create-admin --email EMAIL [--password PASSWORD] [--db FILE]
                                        add an organization admin (random password printed if omitted)
  belay seed-demo --size small|large [--seed N] [--db FILE]
                                        fill an empty database with a demo climbing-gym organization
                                        (small: ${PROFILES.small.customers} customers; large: ${PROFILES.large.customers.toLocaleString('en-US')}); the same seed
                                        (default 1) gives the same data
  belay backup [--to PATH] [--db FILE]  take a verified snapshot of the database, also while it is served
  belay restore PATH [--db FILE]        put a snapshot in place of the database (not while it is served)
  belay rollup rebuild [--db FILE]      roll the daily membership counts again for all history

Options (each also an environment variable):
${settings.map(describeSetting).join('\n')}

belay COMMAND --help shows one command's usage.
`

function describeSetting(s: (typeof settings)[number]): string {
  return `  ${s.flag} (${s.env})\n      ${s.help}${s.default ? ` [${s.default}]` : ''}`
}

const dbOption = describeSetting(settings.find((s) => s.key === 'dbPath')!)
const backupDirOption = describeSetting(settings.find((s) => s.key === 'backupDir')!)

/** `belay COMMAND --help`: what each command takes, printed on stdout with exit 0. */
const commandUsage: Record<string, string> = {
  serve: `Usage: belay serve [options]

Applies pending migrations, creates the organization, gym and admin on first start, and serves the
API until SIGTERM or SIGINT. One serve per database: a second one on a database in use exits.

Options (each also an environment variable):
${settings.map(describeSetting).join('\n')}
`,
  migrate: `Usage: belay migrate [up|status] [--db FILE]

  up        apply pending migrations (the default); refused while belay serve runs on the database
  status    list every migration, applied (with when) or pending

Before applying migrations to a database that has data, a snapshot of it is taken into the backup
folder, named belay-<time>-before-<migration>.sqlite3 (never removed by serve's schedule).

Options:
${dbOption}
${backupDirOption}
`,
  backup: `Usage: belay backup [--to PATH] [--db FILE]

Takes a snapshot of the database, also while belay serve runs on it (copied on a thread of its own
at the lowest CPU priority): the database as it was when the copy's read began, every transaction
in it whole. The copy is written under a temporary name, synced, checked (SQLite's integrity check,
its migrations against this belay's) and only then given its name. Progress goes to stderr, the
result to stdout.

Options:
  --to PATH
      a folder to put belay-<time>-manual.sqlite3 in, or the new file's name [the backup folder]
${dbOption}
${backupDirOption}
`,
  restore: `Usage: belay restore PATH [--db FILE]

Puts the snapshot PATH in place of the database, after checking it as backup does (a damaged copy,
or one migrated by a newer belay, is refused). Refused while belay serve runs on the database, and
no serve can start until it is done. The database it replaces is not deleted: it is moved aside,
whole, as FILE.replaced-<time>. A copy taken before a migration is migrated at the next start.

Options:
${dbOption}
`,
  rollup: `Usage: belay rollup rebuild [--db FILE]

Clears the daily membership rollup (what membership_count reads) and rolls all history again through
today, printing progress. Every day is rolled with today's billing locations, members and add-ons:
a day rolled before keeps no value of its own. Refused while belay serve runs on the database, which
keeps the rollup current by itself.

Options:
${dbOption}
`,
  'create-admin': `Usage: belay create-admin --email EMAIL [--password PASSWORD] [--db FILE]

Adds an organization admin; without --password a random one is made and printed once. On an empty
database it also creates the organization and gym. Safe while belay serve runs on the database.

Options:
  --email EMAIL
      the admin's email (required)
  --password PASSWORD
      at least ${MIN_PASSWORD_LENGTH} characters; default: random, printed once
${dbOption}
`,
  'seed-demo': `Usage: belay seed-demo --size small|large [--seed N] [--db FILE]

Fills an empty database with a demo climbing-gym organization (small: ${PROFILES.small.customers} customers; large:
${PROFILES.large.customers.toLocaleString('en-US')}). Refuses a database with customers, or one belay serve runs on.

Options:
  --size small|large
      how big a gym (required)
  --seed N
      the same seed gives the same data [1]
${dbOption}
`,
}

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h')

/** Pulls `--name value` / `--name=value` out of args, returning the value and the rest. */
function takeOption(args: string[], name: string): [string | undefined, string[]] {
  const rest: string[] = []
  let value: string | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === name) value = args[++i]
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1)
    else rest.push(arg)
  }
  return [value, rest]
}

async function openMigrated(config: Config) {
  checkWritable(config.dbPath)
  const connection = openDatabase(config.dbPath)
  let applied: string[]
  try {
    await snapshotBeforeMigrating(connection, config)
    applied = await migrateToLatest(connection.db)
  } catch (error) {
    // A read-only file opens fine and fails at its first write, here.
    await connection.close().catch(() => {})
    throw databaseError(config.dbPath, error)
  }
  if (applied.length > 0) log.info('migrations applied', { migrations: applied, db: config.dbPath })
  return connection
}

async function serve(config: Config): Promise<void> {
  // Before migrating: a second serve must not touch a database another one is serving.
  const lock = lockForServing(config.dbPath)
  const connection = await openMigrated(config)
  const firstStart = await ensureOrganization(connection.db, systemClock, config)
  if (firstStart) {
    log.info('first start: organization, gym and admin created', { admin_email: firstStart.adminEmail })
    if (firstStart.generatedPassword) {
      log.info(
        'first start: generated admin password (shown only this once; change it with PATCH /api/change-password/)',
        {
          admin_email: firstStart.adminEmail,
          admin_password: firstStart.generatedPassword,
        },
      )
    }
  }
  const serving = await startServing(connection, config, log, { version: pkg.version })
  log.info('listening', { url: serving.url, db: config.dbPath, version: pkg.version })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info('stopping', { signal })
    await serving.stop()
    lock.release()
    log.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

async function migrate(args: string[]): Promise<void> {
  const action = args[0] && !args[0].startsWith('--') ? args.shift()! : 'up'
  const config = loadConfig(args)
  // Migrations change the tables a running server has its statements prepared on: not under it.
  const lock = action === 'up' ? lockForServing(config.dbPath) : undefined
  const connection = openDatabase(config.dbPath)
  try {
    if (action === 'up') {
      await snapshotBeforeMigrating(connection, config)
      const applied = await migrateToLatest(connection.db)
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'up to date')
    } else if (action === 'status') {
      for (const m of await migrationStatus(connection.db))
        console.log(
          `${m.unknown ? 'unknown (applied by a newer belay)' : m.appliedAt ? 'applied' : 'pending'}  ${m.name}  ${m.appliedAt ?? ''}`,
        )
    } else throw new ConfigError(`unknown migrate action ${action} (up or status)`)
  } catch (error) {
    throw databaseError(config.dbPath, error)
  } finally {
    await connection.close()
    lock?.release()
  }
}

async function createAdmin(args: string[]): Promise<void> {
  const [email, afterEmail] = takeOption(args, '--email')
  const [password, rest] = takeOption(afterEmail, '--password')
  if (!email) throw new ConfigError('create-admin needs --email')
  if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) {
    throw new ConfigError(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`)
  }
  const config = loadConfig(rest)
  const connection = await openMigrated(config)
  try {
    // On an empty database this admin is the first-start admin: no other account is made.
    const firstStart = await ensureOrganization(connection.db, systemClock, {
      ...config,
      adminEmail: email,
      adminPassword: password ?? null,
    })
    const plain = firstStart ? (firstStart.generatedPassword ?? password!) : (password ?? newPassword())
    if (!firstStart) {
      if (await getUserByEmail(connection.db, email))
        throw new ConfigError(`a staff user with email ${email} already exists`)
      const gym = await connection.db.selectFrom('gyms').select('id').orderBy('id').executeTakeFirstOrThrow()
      await insertUser(
        connection.db,
        adminUser(email, gym.id, await hashSecret(plain), systemClock.now().toISOString()),
      )
    }
    console.log(password ? `created admin ${email}` : `created admin ${email} with password ${plain}`)
  } catch (error) {
    throw databaseError(config.dbPath, error)
  } finally {
    await connection.close()
  }
}

async function seedDemo(args: string[]): Promise<void> {
  const [size, afterSize] = takeOption(args, '--size')
  const [seedText, rest] = takeOption(afterSize, '--seed')
  if (size !== 'small' && size !== 'large')
    throw new ConfigError('seed-demo needs --size small or --size large')
  const seed = seedText === undefined ? 1 : Number(seedText)
  if (!/^\d+$/.test(seedText ?? '1') || !(seed <= 0xffffffff))
    throw new ConfigError(`--seed takes a whole number from 0 to 4294967295, not ${seedText}`)
  const config = loadConfig(rest)
  // A bulk load is no job for a database the door is using: stop serve first.
  const lock = lockForServing(config.dbPath)
  const connection = await openMigrated(config)
  try {
    const started = performance.now()
    // The first-start organization, if made here, is the demo's: its admin gets the demo password.
    const firstStart = await ensureOrganization(connection.db, systemClock, {
      adminEmail: DEMO_ADMIN_EMAIL,
      adminPassword: DEMO_PASSWORD,
      gymName: DEMO_ORGANIZATION.name,
      timeZone: DEMO_ORGANIZATION.timeZone,
    })
    const summary = await seedDemoData(connection.db, {
      size,
      seed,
      now: systemClock.now(),
      onProgress: (step) => console.error(step),
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(2)
    const n = (count: number) => count.toLocaleString('en-US')
    const c = summary.counts
    const statuses = Object.entries(summary.membershipsByStatus)
      .map(([status, count]) => `${status} ${n(count)}`)
      .join(', ')
    console.log(`seeded the ${size} demo (seed ${seed}) into ${config.dbPath} in ${seconds} s`)
    console.log(`  organization   ${summary.organization.name} (${summary.organization.timeZone})`)
    console.log(`  gyms           ${summary.gyms.join(', ')}`)
    console.log(`  staff users    ${n(summary.staffUsers)}`)
    console.log(
      `  customers      ${n(c.customers)} (${n(c.customer_documents)} documents, ${n(c.customer_alerts)} alerts, ${n(c.customer_relations)} relation rows)`,
    )
    console.log(
      `  memberships    ${n(c.customer_memberships)} (${n(c.membership_members)} member rows): ${statuses}`,
    )
    console.log(`  entry passes   ${n(c.customer_entry_passes)}`)
    console.log(`  events         ${n(c.events)} (${n(c.reservations)} reservations)`)
    console.log(`  check-ins      ${n(c.check_ins)}`)
    console.log(
      `  sales          ${n(c.invoices)} invoices, ${n(c.payments)} payments, ${n(c.refunds)} refunds, ${n(c.gifts)} gift codes`,
    )
    const { email, password, created } = summary.admin
    console.log(
      firstStart || created
        ? `admin login: ${email} / ${password} (every demo staff account has this password)`
        : `admin login: ${email} (an existing account: its password was left as it was)`,
    )
  } catch (error) {
    if (!(error instanceof DemoDataRefused)) throw databaseError(config.dbPath, error)
    console.error(`belay: ${error.message} (use seed-demo with a new --db file)`)
    process.exitCode = 2
  } finally {
    await connection.close()
    lock.release()
  }
}

async function rollup(args: string[]): Promise<void> {
  const action = args[0] && !args[0].startsWith('--') ? args.shift()! : undefined
  if (action !== 'rebuild') throw new ConfigError('rollup needs an action: belay rollup rebuild [--db FILE]')
  const config = loadConfig(args)
  // serve rolls the same tables as the days pass: one writer of the rollup at a time.
  const lock = lockForServing(config.dbPath)
  const connection = await openMigrated(config)
  try {
    const started = performance.now()
    const today = await organizationToday({ db: connection.db, clock: systemClock })
    await rebuildMembershipRollup(connection.db, today, {
      onProgress: (p) => console.error(`rolled through ${p.rolledThrough} (${p.rolled} of ${p.days} days)`),
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(2)
    console.log(`rebuilt the membership rollup through ${today} in ${seconds} s`)
  } catch (error) {
    throw databaseError(config.dbPath, error)
  } finally {
    await connection.close()
    lock.release()
  }
}

async function backup(args: string[]): Promise<void> {
  const [to, rest] = takeOption(args, '--to')
  return backupDatabase(loadConfig(rest), to)
}

async function restore(args: string[]): Promise<void> {
  const source = args[0] && !args[0].startsWith('--') ? args.shift()! : undefined
  if (!source) throw new ConfigError('restore needs the snapshot to restore: belay restore PATH --db FILE')
  return restoreDatabase(loadConfig(args), source)
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv
  if (command !== undefined && command in commandUsage && wantsHelp(args)) {
    console.log(commandUsage[command])
    return
  }
  switch (command) {
    case 'serve': {
      const config = loadConfig(args)
      // Until it listens, a database problem (a read-only file fails at its first write) is one line.
      return serve(config).catch((error) => {
        throw databaseError(config.dbPath, error)
      })
    }
    case 'migrate':
      return migrate(args)
    case 'create-admin':
      return createAdmin(args)
    case 'seed-demo':
      return seedDemo(args)
    case 'backup':
      return backup(args)
    case 'restore':
      return restore(args)
    case 'rollup':
      return rollup(args)
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(usage)
      return
    case '--version':
    case 'version':
      console.log(pkg.version)
      return
    default:
      throw new ConfigError(`unknown command ${command}`)
  }
}

const command = process.argv[2]
try {
  await main(process.argv.slice(2))
} catch (error) {
  if (error instanceof StartupError) {
    // One line the person at the box can act on; serve's goes out as a log record like its others.
    if (command === 'serve') log.error(error.message)
    else console.error(`belay: ${error.message}`)
    process.exit(1)
  }
  if (error instanceof ConfigError) {
    console.error(`belay: ${error.message}\n\n${usage}`)
    process.exit(2)
  }
  log.error('fatal', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  process.exit(1)
}

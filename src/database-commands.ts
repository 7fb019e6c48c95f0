import { organizationToday } from './api/organization/queries.ts'
import { insertUser } from './api/users/queries.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { adminUser, ensureOrganization } from './bootstrap.ts'
import {
  DEMO_ADMIN_EMAIL,
  DEMO_ORGANIZATION,
  DEMO_PASSWORD,
  DemoDataRefused,
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
import { checkWritable, databaseError, StartupError } from './lib/startup-errors.ts'
import { ImportError, importOrganization, LEFT_OUT, type ImportResult } from './import/index.ts'

/*
 * The commands that work on the database file and end: migrate, create-admin, seed-demo, rollup,
 * backup, restore and import, each taking its arguments after the command's name.
 */

/** Pulls `--name value` / `--name=value` out of args, returning the value and the rest. */
export function takeOption(args: string[], name: string): [string | undefined, string[]] {
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

/** Opens the database, snapshotting it first when migrations are pending, and migrates it. */
export async function openMigrated(config: Config) {
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

export async function migrate(args: string[]): Promise<void> {
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

export async function createAdmin(args: string[]): Promise<void> {
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

export async function seedDemo(args: string[]): Promise<void> {
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
    console.log(
      `  walls          ${n(c.sections)} sections, ${n(c.grades)} grades, ${n(summary.climbsUp)} climbs up, ${n(c.climbs - summary.climbsUp)} stripped`,
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

export async function rollup(args: string[]): Promise<void> {
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

export async function backup(args: string[]): Promise<void> {
  const [to, rest] = takeOption(args, '--to')
  return backupDatabase(loadConfig(rest), to)
}

export async function restore(args: string[]): Promise<void> {
  const source = args[0] && !args[0].startsWith('--') ? args.shift()! : undefined
  if (!source) throw new ConfigError('restore needs the snapshot to restore: belay restore PATH --db FILE')
  return restoreDatabase(loadConfig(args), source)
}

/**
 * `belay import --from URL --token TOKEN --db FILE`: copies an organization from a server that
 * speaks this API into a new database (src/import/), or carries on an import of the same source
 * that was stopped. Progress goes to stderr, the closing table to stdout.
 */
export async function importCommand(args: string[]): Promise<void> {
  const [from, afterFrom] = takeOption(args, '--from')
  const [token, rest] = takeOption(afterFrom, '--token')
  if (!from) throw new ConfigError('import needs --from URL (the server to copy from)')
  if (!token)
    throw new ConfigError("import needs --token TOKEN (an organization admin's API token at the source)")
  const config = loadConfig(rest)
  // Pages are written as they come: no serve may have the file meanwhile.
  const lock = lockForServing(config.dbPath)
  checkWritable(config.dbPath)
  const connection = openDatabase(config.dbPath)
  try {
    const started = performance.now()
    try {
      await migrateToLatest(connection.db)
    } catch (error) {
      throw databaseError(config.dbPath, error)
    }
    const result = await importOrganization({
      from,
      token,
      db: connection.db,
      dbPath: config.dbPath,
      progress: (line) => console.error(line),
    })
    const seconds = (performance.now() - started) / 1000
    console.log(importSummary(result, config.dbPath, seconds))
  } catch (error) {
    if (error instanceof ImportError) throw new StartupError(error.message)
    throw error
  } finally {
    await connection.close()
    lock.release()
  }
}

/** The closing output: records per collection, what the source did not offer, what is not copied. */
export function importSummary(result: ImportResult, dbPath: string, seconds: number): string {
  const n = (count: number) => count.toLocaleString('en-US')
  const width = Math.max(...result.collections.map((c) => c.name.length), 'collection'.length)
  const copied = result.collections.reduce((sum, c) => sum + c.records, 0)
  const lines = [
    `imported ${result.organization || 'the organization'} from ${result.source} into ${dbPath} in ${seconds.toFixed(1)} s${result.resumed ? ' (carried on from an earlier run)' : ''}: ${n(copied)} records`,
    '',
    `  ${'collection'.padEnd(width)}  records`,
    ...result.collections.map(
      (c) =>
        `  ${c.name.padEnd(width)}  ${c.state === 'missing' ? 'not offered by the source (404)' : n(c.records)}`,
    ),
    '',
    'Not copied:',
    ...LEFT_OUT.map((l) => `  ${l.what}: ${l.why}`),
    '',
    'Staff users have no password here: none can log in until one is set. Make yourself an admin with',
    `  belay create-admin --email EMAIL --db ${dbPath}`,
    'then give each staff user a new password (PATCH /api/users/{id}/ with "password").',
  ]
  return lines.join('\n')
}

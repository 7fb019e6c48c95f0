#!/usr/bin/env bun
import pkg from '../package.json' with { type: 'json' }
import { ConfigError, loadConfig, type Config } from './config.ts'
import { ensureOrganization } from './bootstrap.ts'
import { lockForServing } from './db/serve-lock.ts'
import { systemClock } from './lib/clock.ts'
import { consoleLogger as log } from './lib/log.ts'
import { existsSync } from 'node:fs'
import { openHub } from './core/sites/hub.ts'
import type { Hub } from './core/sites/hub-types.ts'
import { joinFromSnapshot } from './core/sites/snapshots.ts'
import { startServing } from './serve.ts'
import { databaseError, StartupError } from './lib/startup-errors.ts'
import { commandUsage, usage } from './usage.ts'
import {
  backup,
  createAdmin,
  importCommand,
  migrate,
  openMigrated,
  restore,
  rollup,
  seedDemo,
} from './database-commands.ts'

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h')

async function serve(config: Config): Promise<void> {
  // Before migrating: a second serve must not touch a database another one is serving.
  const lock = lockForServing(config.dbPath)
  const hub = config.site === null ? undefined : openHubFor(config, config.site, log)
  const joining = hub !== undefined && !existsSync(config.dbPath) && (await hubHasSites(hub))
  if (joining) {
    log.info('joining the organization from the hub', { site: config.site, db: config.dbPath })
    const joined = await joinFromSnapshot(config.dbPath, hub, {
      site: config.site!,
      organization: config.hubOrganization,
    })
    log.info('joined from the hub: catching up', {
      site: config.site,
      site_number: joined.siteNumber,
      snapshot_covers: joined.coversStreamSequence,
    })
  }
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
  const serving = await startServing(connection, config, log, { version: pkg.version, hub, joining })
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

/** The hub link `belay serve --hub ... --site ...` asks for. */
function openHubFor(config: Config, site: string, logger: typeof log): Hub {
  return openHub({
    servers: config.hubServers,
    site,
    organization: config.hubOrganization,
    creds: config.hubCreds ?? undefined,
    tlsCa: config.hubTlsCa ?? undefined,
    replicas: config.hubReplicas,
    log: logger,
  })
}

/** Whether the organization has sites on the hub already (then a new box joins from its snapshot). */
async function hubHasSites(hub: Hub): Promise<boolean> {
  await hub.ready()
  return (await hub.sites()).length > 0
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
    case 'import':
      return importCommand(args)
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

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

/** Debian's nats-server: CI installs it (.ci/run); nothing downloads a server. */
export const NATS_SERVER = '/usr/sbin/nats-server'

export interface NatsServer {
  /** nats://127.0.0.1:PORT */
  readonly url: string
  readonly port: number
  /** JetStream's store, kept across stop() and start(). */
  readonly storeDir: string
  /**
   * Stops the server: SIGTERM lets it flush its store and say goodbye to clients, SIGKILL is a
   * crash.
   */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>
  /** Starts it again on the same port, store and configuration. */
  start(): Promise<void>
  /** Stops it and removes its directory. */
  dispose(): Promise<void>
}

export interface NatsServerOptions {
  /** Configuration added after the listen and jetstream lines: accounts and users (siteUsersConfig). */
  config?: string
}

/**
 * Starts nats-server with JetStream on a port of its choosing on loopback, in a temporary
 * directory, and resolves once it says it is ready. Fails, never skips, when the binary is
 * missing: the sites tests are part of the suite.
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServer> {
  if (!existsSync(NATS_SERVER))
    throw new Error(
      `${NATS_SERVER} is missing: install Debian's nats-server (apt-get install nats-server), as .ci/run does`,
    )
  const dir = mkdtempSync(join(tmpdir(), 'belay-nats-'))
  const storeDir = join(dir, 'store')
  const configPath = join(dir, 'nats.conf')
  let port = -1
  let proc: Subprocess<'ignore', 'ignore', 'pipe'> | null = null
  const killOnExit = () => proc?.kill('SIGKILL')
  process.on('exit', killOnExit)

  async function start(): Promise<void> {
    // A port of -1 lets the server pick a free one the first time; a restart reuses it.
    writeFileSync(
      configPath,
      [`listen: "127.0.0.1:${port}"`, `jetstream { store_dir: "${storeDir}" }`, options.config ?? ''].join(
        '\n',
      ),
    )
    proc = Bun.spawn([NATS_SERVER, '-c', configPath], { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' })
    port = await readyPort(proc)
  }

  async function stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const running = proc
    proc = null
    if (!running) return
    running.kill(signal)
    await running.exited
  }

  await start()
  return {
    get url() {
      return `nats://127.0.0.1:${port}`
    },
    get port() {
      return port
    },
    storeDir,
    stop,
    start,
    async dispose() {
      await stop('SIGKILL')
      process.off('exit', killOnExit)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Reads the server's log until it is ready and returns its client port; the log goes on being read. */
async function readyPort(proc: Subprocess<'ignore', 'ignore', 'pipe'>): Promise<number> {
  const reader = proc.stderr.getReader()
  const decoder = new TextDecoder()
  let log = ''
  const deadline = setTimeout(() => proc.kill('SIGKILL'), 15_000)
  try {
    while (!log.includes('Server is ready')) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`nats-server exited before it was ready:\n${log}`)
      log += decoder.decode(value, { stream: true })
    }
  } finally {
    clearTimeout(deadline)
  }
  // Drained from now on, so a chatty server never blocks on a full pipe.
  void (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done);
  })()
  const listening = /Listening for client connections on [^\s]+:(\d+)/.exec(log)
  if (!listening) throw new Error(`nats-server did not say its port:\n${log}`)
  return Number(listening[1])
}

export interface SiteUser {
  site: string
  password: string
}

/**
 * The hub's accounts block for one organization: a user per site, who may publish changes only on
 * its own subject, and an optional admin without limits (the operator's `nats` command). A site
 * also needs JetStream's API, acks and flow control, and the sites and snapshots buckets. It may
 * not delete any stream, nor purge, delete from or reconfigure the changes stream. Subscribing is
 * left open: every site reads every change anyway. Passwords may be bcrypt hashes (`nats server
 * passwd`) instead of plain text.
 */
export function siteUsersConfig(options: {
  organization: string
  sites: SiteUser[]
  admin?: { user: string; password: string }
}): string {
  const org = options.organization
  const stream = `BELAY_${org.toUpperCase()}`
  const siteUser = ({ site, password }: SiteUser) =>
    [
      `      {`,
      `        user: "${site}", password: "${password}"`,
      `        permissions: {`,
      `          publish: {`,
      `            allow: [`,
      `              "belay.${org}.changes.${site}",`,
      `              "$JS.API.>", "$JS.ACK.>", "$JS.FC.>",`,
      `              "$KV.${stream}_SITES.>", "$O.${stream}_SNAPSHOTS.>"`,
      `            ]`,
      `            deny: [`,
      `              "$JS.API.STREAM.DELETE.>",`,
      `              "$JS.API.STREAM.PURGE.${stream}", "$JS.API.STREAM.MSG.DELETE.${stream}",`,
      `              "$JS.API.STREAM.UPDATE.${stream}"`,
      `            ]`,
      `          }`,
      `        }`,
      `      }`,
    ].join('\n')
  const users = options.sites.map(siteUser)
  if (options.admin)
    users.push(`      { user: "${options.admin.user}", password: "${options.admin.password}" }`)
  return [
    `accounts {`,
    `  BELAY: {`,
    `    jetstream: enabled`,
    `    users: [`,
    users.join(',\n'),
    `    ]`,
    `  }`,
    `}`,
  ].join('\n')
}

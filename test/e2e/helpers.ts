/**
 * End-to-end helpers: run the BUILT executable (build/out/belay) as a door controller or integrator
 * would, from an empty temporary working directory, on a port the kernel picks (`--port 0`, read back
 * from the "listening" log line: no race between choosing a port and binding it), against a
 * temporary database, and talk to it over real HTTP on loopback.
 *
 * Every process started here is tracked; `stopAll()` (call it in afterEach/afterAll) ends whatever is
 * still running, so a failing test never leaves a server behind.
 */
import type { Subprocess } from 'bun'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const ROOT = join(import.meta.dir, '..', '..')
export const BELAY = join(ROOT, 'build', 'out', 'belay')

const START_TIMEOUT_MS = 10_000
const STOP_TIMEOUT_MS = 5_000
const RUN_TIMEOUT_MS = 15_000

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

let built = false

/** `npm test` builds first; `bun test test/e2e` alone builds once here if the executable is missing. */
export function ensureBuilt(): void {
  if (built || existsSync(BELAY)) {
    built = true
    return
  }
  const result = Bun.spawnSync([process.execPath, 'run', join(ROOT, 'build', 'build.ts')], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  if (result.exitCode !== 0 || !existsSync(BELAY)) {
    throw new Error(
      `building ${BELAY} failed (exit ${result.exitCode}):\n${result.stdout.toString()}\n${result.stderr.toString()}`,
    )
  }
  built = true
}

// ---------------------------------------------------------------------------------------------------
// Temporary directories

const tempDirs: string[] = []

/** A fresh empty directory under the system temp dir, removed by `removeTempDirs()`. */
export function tempDir(label = 'belay-e2e'): string {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`))
  tempDirs.push(dir)
  return dir
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/** A database path in its own temporary directory (the file does not exist yet). */
export const tempDbPath = (): string => join(tempDir('belay-e2e-db'), 'belay.sqlite3')

// ---------------------------------------------------------------------------------------------------
// Processes

/** The parent's environment without any BELAY_* setting, so the test decides every one of them. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('BELAY_')) env[key] = value
  }
  return { ...env, ...extra }
}

export interface LogLine {
  level: string
  msg: string
  [field: string]: unknown
}

export interface SpawnOptions {
  /** Extra environment variables (BELAY_* from the test runner's environment are never passed on). */
  env?: Record<string, string>
  /** Working directory; default a fresh empty temporary directory. */
  cwd?: string
}

const live = new Set<BelayProcess>()

/** One running copy of the executable, with its stdout and stderr collected as they arrive. */
export class BelayProcess {
  stdout = ''
  stderr = ''
  readonly cwd: string
  readonly exited: Promise<number>
  private readonly proc: Subprocess<'ignore', 'pipe', 'pipe'>
  private readonly drained: Promise<unknown>

  constructor(
    readonly args: string[],
    options: SpawnOptions = {},
  ) {
    ensureBuilt()
    this.cwd = options.cwd ?? tempDir('belay-e2e-cwd')
    this.proc = Bun.spawn([BELAY, ...args], {
      cwd: this.cwd,
      env: cleanEnv(options.env ?? {}),
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    })
    live.add(this)
    this.drained = Promise.all([
      this.pump(this.proc.stdout, (text) => (this.stdout += text)),
      this.pump(this.proc.stderr, (text) => (this.stderr += text)),
    ])
    this.exited = this.proc.exited.then(async (code) => {
      live.delete(this)
      // Collect what the process wrote just before exiting (the "stopped" line), without waiting
      // forever should something else still hold the pipes.
      await Promise.race([this.drained, sleep(1_000)])
      return code
    })
  }

  private async pump(stream: ReadableStream<Uint8Array>, onText: (text: string) => void) {
    const decoder = new TextDecoder()
    try {
      for await (const chunk of stream) onText(decoder.decode(chunk, { stream: true }))
      onText(decoder.decode())
    } catch {
      // the pipe closed under us; what was read is kept
    }
  }

  get pid(): number {
    return this.proc.pid
  }

  get exitCode(): number | null {
    return this.proc.exitCode
  }

  get signalCode() {
    return this.proc.signalCode
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null
  }

  /** stderr's JSON log lines, parsed; lines that are not JSON objects are left out. */
  logs(): LogLine[] {
    const lines: LogLine[] = []
    for (const line of this.stderr.split('\n')) {
      if (!line.trim().startsWith('{')) continue
      try {
        lines.push(JSON.parse(line) as LogLine)
      } catch {
        // a partial line still being written
      }
    }
    return lines
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.running) this.proc.kill(signal)
  }

  /** Sends the signal and waits for the exit (SIGKILL and an error if it does not come in time). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number> {
    this.kill(signal)
    const code = await Promise.race([this.exited, sleep(STOP_TIMEOUT_MS).then(() => 'timeout' as const)])
    if (code === 'timeout') {
      this.kill('SIGKILL')
      await this.exited
      throw new Error(
        `belay (pid ${this.pid}) did not exit within ${STOP_TIMEOUT_MS} ms of ${signal}; stderr:\n${this.stderr}`,
      )
    }
    return code
  }

  /** Waits for the process to exit by itself (a CLI command, or a server that fails to start). */
  async waitForExit(timeoutMs = RUN_TIMEOUT_MS): Promise<number> {
    const code = await Promise.race([this.exited, sleep(timeoutMs).then(() => 'timeout' as const)])
    if (code === 'timeout') {
      this.kill('SIGKILL')
      await this.exited
      throw new Error(
        `belay ${this.args.join(' ')} did not exit within ${timeoutMs} ms; stdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
      )
    }
    return code
  }

  describe(): string {
    return `belay ${this.args.join(' ')} (pid ${this.pid}, exit ${this.exitCode ?? this.signalCode ?? 'running'})\nstderr:\n${this.stderr}\nstdout:\n${this.stdout}`
  }
}

/** Starts the executable with these arguments; does not wait for anything. */
export const spawnBelay = (args: string[], options: SpawnOptions = {}) => new BelayProcess(args, options)

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs a command to completion (migrate, create-admin, --help, ...). */
export async function runBelay(args: string[], options: SpawnOptions = {}): Promise<RunResult> {
  const proc = spawnBelay(args, options)
  const code = await proc.waitForExit()
  return { code, stdout: proc.stdout, stderr: proc.stderr }
}

/** Ends every process still running (SIGTERM, then SIGKILL if need be). For afterEach/afterAll. */
export async function stopAll(): Promise<void> {
  const running = [...live]
  await Promise.all(
    running.map(async (p) => {
      try {
        await p.stop('SIGTERM')
      } catch {
        // stop() already fell back to SIGKILL
      }
    }),
  )
}

// ---------------------------------------------------------------------------------------------------
// Servers

export interface ServeOptions extends SpawnOptions {
  /** Database file; default a fresh temporary one. */
  db?: string
  /** Extra `serve` arguments, e.g. ['--public-url', 'https://desk.gym.example']. */
  args?: string[]
  /** How long it may take to listen and answer /healthz (a box joining a hub catches up first). */
  startTimeoutMs?: number
}

export interface Server {
  process: BelayProcess
  /** e.g. http://127.0.0.1:41234 (no final slash) */
  base: string
  port: number
  db: string
  stop(signal?: NodeJS.Signals): Promise<number>
}

/**
 * `belay serve` on loopback, on a port the kernel picks, and waits (at most 10 s unless told) until
 * the "listening" line names the port and /healthz answers 200. On failure the error carries the
 * process's stderr.
 */
export async function startServer(options: ServeOptions = {}): Promise<Server> {
  const db = options.db ?? tempDbPath()
  const proc = spawnBelay(
    ['serve', '--host', '127.0.0.1', '--port', '0', '--db', db, ...(options.args ?? [])],
    options,
  )
  const startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS
  const deadline = Date.now() + startTimeoutMs
  const fail = async (why: string): Promise<never> => {
    if (proc.running) await proc.stop('SIGKILL').catch(() => {})
    throw new Error(`belay serve ${why}\n${proc.describe()}`)
  }

  let port: number | undefined
  while (port === undefined) {
    const listening = proc.logs().find((l) => l.msg === 'listening')
    if (listening) {
      const url = new URL(String(listening.url))
      port = Number(url.port)
      if (!(port > 0)) await fail(`logged an unusable listening URL ${String(listening.url)}`)
      break
    }
    if (!proc.running) await fail('exited before listening')
    if (Date.now() > deadline) await fail(`did not log "listening" within ${startTimeoutMs} ms`)
    await sleep(20)
  }

  const base = `http://127.0.0.1:${port}`
  for (;;) {
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1_000) })
      if (res.status === 200) {
        await res.arrayBuffer()
        break
      }
    } catch {
      // not answering yet
    }
    if (!proc.running) await fail('exited before /healthz answered')
    if (Date.now() > deadline) await fail(`/healthz did not answer 200 within ${startTimeoutMs} ms`)
    await sleep(20)
  }

  return { process: proc, base, port: port!, db, stop: (signal) => proc.stop(signal) }
}

// ---------------------------------------------------------------------------------------------------
// HTTP

export interface ApiResponse {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any
}

export interface RequestOptions {
  token?: string
  /** Sent as JSON with content-type application/json. */
  json?: unknown
  /** A raw body, sent as is (set the content type in `headers`). */
  body?: string | Uint8Array
  headers?: Record<string, string>
}

/** One HTTP request to a running server; never throws on an HTTP error status. */
export async function request(
  base: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  if (options.token) headers.authorization = `Token ${options.token}`
  let body: string | Uint8Array | undefined = options.body
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.json)
  }
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  })
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: res.status, headers: res.headers, text, body: parsed }
}

/** POST /api/get-token/ and return the key, failing loudly when the login is refused. */
export async function getToken(base: string, username: string, password: string): Promise<string> {
  const res = await request(base, 'POST', '/api/get-token/', { json: { username, password } })
  if (res.status !== 200 || typeof res.body?.token !== 'string') {
    throw new Error(`get-token for ${username} answered ${res.status}: ${res.text}`)
  }
  return res.body.token
}

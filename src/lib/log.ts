/** One-line JSON log records on stderr, so journald or a log file can take them as they are. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

function write(level: string, msg: string, fields?: Record<string, unknown>) {
  const record = { time: new Date().toISOString(), level, msg, ...fields }
  process.stderr.write(JSON.stringify(record) + '\n')
}

export const consoleLogger: Logger = {
  info: (msg, fields) => write('info', msg, fields),
  warn: (msg, fields) => write('warn', msg, fields),
  error: (msg, fields) => write('error', msg, fields),
}

/** Swallows everything; tests that want to see logs pass a recording logger instead. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} }

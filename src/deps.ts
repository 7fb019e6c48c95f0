import type { Config } from './config.ts'
import type { Db } from './db/connection.ts'
import type { Clock } from './lib/clock.ts'
import type { Logger } from './lib/log.ts'
import type { LoginThrottle } from './core/login-throttle.ts'

/** What the API's handlers and use cases can reach. Built once in main.ts (or per test file). */
export interface Deps {
  db: Db
  clock: Clock
  log: Logger
  config: Pick<Config, 'publicUrl' | 'tokenLifetimeHours'>
  loginThrottle: LoginThrottle
  version: string
}

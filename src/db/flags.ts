import type { Flag } from './schema.ts'

/** JSON boolean -> SQLite 0/1, passing "not sent" through as undefined. */
export const toFlag = (value: boolean | undefined): Flag | undefined =>
  value === undefined ? undefined : value ? 1 : 0

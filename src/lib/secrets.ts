import { createHash, randomBytes } from 'node:crypto'

/** A new API token: 40 hex characters, as DRF's authtoken issues. */
export const newTokenKey = (): string => randomBytes(20).toString('hex')

/** Tokens are stored only as this hash, so a copied database file does not leak working tokens. */
export const hashTokenKey = (key: string): string => createHash('sha256').update(key).digest('hex')

/** A readable random password for the first-start admin (printed once to the log). */
export const newPassword = (): string => randomBytes(12).toString('base64url')

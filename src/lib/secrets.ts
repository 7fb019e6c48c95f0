import { randomBytes } from 'node:crypto'

/** A new API token: 40 hex characters, as DRF's authtoken issues. */
export const newTokenKey = (): string => randomBytes(20).toString('hex')

/**
 * Tokens are stored only as this hash, so a copied database file does not leak working tokens.
 * SHA-256 in hex, by Bun's one-shot hash: every API request hashes its token, and the one-shot call
 * gives the same digest as node:crypto's createHash without building a hash object each time.
 */
export const hashTokenKey = (key: string): string => Bun.SHA256.hash(key, 'hex')

/** A readable random password for the first-start admin (printed once to the log). */
export const newPassword = (): string => randomBytes(12).toString('base64url')

/** Letters and digits a person reads off a card without confusing them (no 0/O, 1/I/L). */
const GIFT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

/** A gift's code from 12 bytes (0-255), each naming one character of GIFT_CODE_ALPHABET. */
export const giftCodeFrom = (bytes: ArrayLike<number>): string =>
  Array.from(bytes, (byte) => GIFT_CODE_ALPHABET[byte % GIFT_CODE_ALPHABET.length]).join('')

/** A gift's code: 12 characters of GIFT_CODE_ALPHABET, random. */
export const newGiftCode = (): string => giftCodeFrom(randomBytes(12))

/** A new browser session's key: 64 hex characters, kept by the browser in an HttpOnly cookie. */
export const newSessionKey = (): string => randomBytes(32).toString('hex')

/**
 * The CSRF token of the session with this key: the page's scripts read it from the `csrftoken`
 * cookie and send it back. Worked out from the key, so nothing more is stored; the stored hash of
 * the key (hashTokenKey) does not give it, and it does not give the key.
 */
export const csrfTokenFor = (sessionKey: string): string => Bun.SHA256.hash(`csrf:${sessionKey}`, 'hex')

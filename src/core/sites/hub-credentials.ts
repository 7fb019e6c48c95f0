import { existsSync, readFileSync } from 'node:fs'
import {
  credsAuthenticator,
  nkeyAuthenticator,
  usernamePasswordAuthenticator,
  type Authenticator,
} from '@nats-io/transport-node'

/**
 * Turns `--hub-creds` into the client's authenticator: the path of a NATS creds file (a user JWT
 * and its seed, for an operator-managed hub) or of an nkey seed file, else `user:password`. A file
 * is read once here, so a missing or unreadable one fails at start with its path in the message.
 */
export function hubAuthenticator(creds: string | undefined): Authenticator | undefined {
  if (!creds) return undefined
  if (existsSync(creds)) {
    const text = readFileSync(creds, 'utf8')
    if (text.includes('BEGIN NATS USER JWT')) return credsAuthenticator(new TextEncoder().encode(text))
    const seed = text.trim()
    if (/^SU[A-Z2-7]+$/.test(seed)) return nkeyAuthenticator(new TextEncoder().encode(seed))
    throw new Error(`${creds} is neither a NATS creds file nor an nkey seed`)
  }
  const colon = creds.indexOf(':')
  if (colon <= 0) throw new Error('the hub credentials are neither a file nor user:password')
  return usernamePasswordAuthenticator(creds.slice(0, colon), creds.slice(colon + 1))
}

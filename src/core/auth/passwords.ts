/** Passwords and PINs are stored as argon2id hashes (Bun's built-in implementation). */

/**
 * What a new hash costs: Bun's argon2id defaults (64 MiB, two passes), a tenth of a second or more
 * of a core. A hash carries its own cost, so verifying one made at another cost still works.
 */
export const SECRET_HASH_COST = { memoryCost: 65_536, timeCost: 2 } as const

let cost: { memoryCost: number; timeCost: number } = SECRET_HASH_COST

/**
 * Makes new hashes cheap, for the in-process tests alone (test/preload.ts): thousands of tests log
 * in, and what they check is who may log in, not how slowly. The built executable never calls it.
 */
export function hashCheaplyForTests(): void {
  cost = { memoryCost: 64, timeCost: 1 }
}

export const hashSecret = (plain: string): Promise<string> =>
  Bun.password.hash(plain, { algorithm: 'argon2id', ...cost })

/**
 * A hash no password matches, checked when there is no real one (unknown user, no password set) so
 * a failed login takes as long either way and does not reveal which emails exist.
 */
let dummyHash: Promise<string> | undefined

export async function verifySecret(plain: string, hash: string | null): Promise<boolean> {
  if (hash === null) {
    await Bun.password.verify(plain, await (dummyHash ??= hashSecret(crypto.randomUUID())))
    return false
  }
  return Bun.password.verify(plain, hash)
}

export const MIN_PASSWORD_LENGTH = 8

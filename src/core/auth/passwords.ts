/** Passwords and PINs are stored as argon2id hashes (Bun's built-in implementation). */
export const hashSecret = (plain: string): Promise<string> =>
  Bun.password.hash(plain, { algorithm: 'argon2id' })

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

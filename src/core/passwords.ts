/** Passwords and PINs are stored as argon2id hashes (Bun's built-in implementation). */
export const hashSecret = (plain: string): Promise<string> =>
  Bun.password.hash(plain, { algorithm: 'argon2id' })

export async function verifySecret(plain: string, hash: string | null): Promise<boolean> {
  if (hash === null) return false
  return Bun.password.verify(plain, hash)
}

export const MIN_PASSWORD_LENGTH = 8

export const passwordTooShort = `This password is too short. It must contain at least ${MIN_PASSWORD_LENGTH} characters.`

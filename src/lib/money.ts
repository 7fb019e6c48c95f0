/**
 * Money is stored as integer cents. The API shows it as a decimal string with two places on
 * payments, member rows and products ("12.50"), and as a JSON number on credits (12.5).
 */
export const centsToDecimal = (cents: number): string => {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

export const centsToNumber = (cents: number): number => cents / 100

/** A decimal amount from a request ("12.5", 12.5) in whole cents, rounding half away from zero. */
export const toCents = (amount: number | string): number => {
  const value = typeof amount === 'string' ? Number(amount) : amount
  return Math.sign(value) * Math.round(Math.abs(value) * 100)
}

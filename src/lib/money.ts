/**
 * Money is stored as integer cents. The API shows it as a decimal string with two places on
 * payments, member rows and products ("12.50"), and as a JSON number on credits (12.5).
 */
export const centsToDecimal = (cents: number): string => unitsToDecimal(cents, 2)

/**
 * A count of a decimal's smallest unit as the decimal string with `places` places: 825 ten-thousandths
 * is "0.0825", 1250 hundredths is "12.50".
 */
export const unitsToDecimal = (units: number, places: number): string => {
  const sign = units < 0 ? '-' : ''
  const abs = Math.abs(units)
  const scale = 10 ** places
  return `${sign}${Math.floor(abs / scale)}.${String(abs % scale).padStart(places, '0')}`
}

export const centsToNumber = (cents: number): number => cents / 100

/** A decimal amount from a request ("12.5", 12.5) in whole cents, rounding half away from zero. */
export const toCents = (amount: number | string): number => {
  const value = typeof amount === 'string' ? Number(amount) : amount
  return Math.sign(value) * Math.round(Math.abs(value) * 100)
}

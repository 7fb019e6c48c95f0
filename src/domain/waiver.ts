import { isExpired } from '../lib/local-time.ts'

/**
 * facts.hasValidWaiver from the customer's waiver documents' expiration dates: one with no date, or
 * one usable through the end of its expiration day in the gym's zone (a waiver expiring today still
 * lets the customer in until local midnight). record.ts may ask SQL the same question with
 * `expiration_date IS NULL OR expiration_date >= localDate(now, zone)`; this is the rule it pins.
 */
export const hasUnexpiredWaiver = (
  expirationDates: readonly (string | null)[],
  now: Date,
  zone: string,
): boolean => expirationDates.some((date) => !isExpired(date, zone, now))

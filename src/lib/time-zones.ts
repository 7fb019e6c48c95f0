import { IANAZone } from 'luxon'

/**
 * True when `name` is an IANA zone the runtime knows. The compiled executable carries full ICU, so
 * this answers the same with or without system zoneinfo. Bare offsets ("+02:00", "UTC+2") are
 * accepted by newer Intl implementations but are not zone names, so they are refused here.
 */
export function isKnownTimeZone(name: string): boolean {
  if (/^[+-]|^(UTC|GMT)[+-]/i.test(name)) return false
  return IANAZone.isValidZone(name)
}

/** The zone's canonical spelling ("america/denver" -> "America/Denver"), for storing. */
export function canonicalTimeZone(name: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
}

/**
 * A staff user as lists name them (a climb's setters, the PIN prompt's staff): "First Last", or the
 * email when they have no name.
 */
export function staffName(user: { first_name: string; last_name: string; email: string }): string {
  const name = [user.first_name.trim(), user.last_name.trim()].filter((part) => part !== '').join(' ')
  return name === '' ? user.email : name
}

/** Names compared as people read a list: case aside, then as written. */
export const compareNames = (a: string, b: string): number => {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0
}

/**
 * What the desk remembers. The token lives as long as the browser tab (sessionStorage): closing the
 * tab logs out. The desk's gym is the computer's (localStorage): chosen once, kept across logins.
 */

const TOKEN = 'belay.token'
const GYM = 'belay.gym'

export const storedToken = (): string | null => sessionStorage.getItem(TOKEN)

export function storeToken(token: string | null): void {
  if (token === null) sessionStorage.removeItem(TOKEN)
  else sessionStorage.setItem(TOKEN, token)
}

export function storedGymId(): number | null {
  const id = Number(localStorage.getItem(GYM))
  return Number.isInteger(id) && id > 0 ? id : null
}

export function storeGymId(id: number | null): void {
  if (id === null) localStorage.removeItem(GYM)
  else localStorage.setItem(GYM, String(id))
}

import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import type { PinHolder } from '../types.ts'

/** The staff the PIN prompt offers: still loading, loaded, or not loadable (it then asks an email). */
export type PinHolders =
  { state: 'loading' } | { state: 'loaded'; holders: PinHolder[] } | { state: 'failed' }

/**
 * Who can act in PIN mode, read when the desk is in PIN mode and again by `reload` (each time the
 * prompt opens, so a PIN an admin has just set shows); a failed reload keeps the list it had.
 */
export function usePinHolders(active: boolean): { holders: PinHolders; reload: () => void } {
  const [holders, setHolders] = useState<PinHolders>({ state: 'loading' })
  const reload = () => {
    api<PinHolder[]>('GET', '/api/users/pin-holders/')
      .then((list) => setHolders({ state: 'loaded', holders: list }))
      .catch(() => setHolders((now) => (now.state === 'loaded' ? now : { state: 'failed' })))
  }
  useEffect(() => {
    if (active) reload()
  }, [active])
  return { holders, reload }
}

/** The holders whose name or email holds every word of `filter`, case aside. */
export function filterHolders(holders: PinHolder[], filter: string): PinHolder[] {
  const words = filter
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
  return holders.filter((holder) => {
    const text = `${holder.name} ${holder.email}`.toLowerCase()
    return words.every((word) => text.includes(word))
  })
}

/** The names two holders share: those buttons show the email too, to tell them apart. */
export function sharedNames(holders: PinHolder[]): Set<string> {
  const seen = new Set<string>()
  const shared = new Set<string>()
  for (const { name } of holders) (seen.has(name) ? shared : seen).add(name)
  return shared
}

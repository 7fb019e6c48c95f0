import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, messageOf, query } from '../api.ts'
import { checkInById, type ScanResult } from '../desk-check-in.ts'
import { fullName } from '../format.ts'
import type { Gym, Page } from '../types.ts'
import { ErrorLine } from './error-line.tsx'
import type { components } from '../api-schema.ts'

type Schemas = components['schemas']

/** A customer's relation, as /api/customers/<id>/relations/ gives it. */
type Relation = Schemas['CustomerRelation']

const RELATIONS: Record<string, string> = {
  SPO: 'spouse',
  PRT: 'partner',
  PRE: 'parent',
  CHI: 'child',
  GUA: 'guardian',
  WAR: 'ward',
  SIB: 'sibling',
  OTH: 'family',
}

/** What a family member's check-in answered, in a few words beside their name. */
function outcomeWords(result: ScanResult): { text: string; tone: 'ok' | 'notice' | 'refused' } {
  switch (result.kind) {
    case 'checked_in':
      return { text: 'Checked in', tone: 'ok' }
    case 'duplicate':
      return { text: result.refusal.detail, tone: 'notice' }
    case 'refused':
      return { text: result.refusal.detail, tone: 'refused' }
    case 'not_found':
      return { text: 'Not found', tone: 'refused' }
    case 'failed':
      return { text: result.message, tone: 'refused' }
  }
}

/**
 * A customer's family (their relations), each with a "Check in" by the door's rules, and "Check in
 * all". Loaded after whatever shows it, so it never holds a card back. `onResult` hears each answer.
 */
export function Family({
  customerId,
  gym,
  onResult,
  delayMs = 0,
}: {
  customerId: number
  gym: Gym
  onResult?: (result: ScanResult) => void
  /** On a scan's card: read a moment later, so a queue of scans never waits behind it. */
  delayMs?: number
}) {
  const [relations, setRelations] = useState<Relation[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [outcomes, setOutcomes] = useState<Record<number, ScanResult>>({})
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let current = true
    setRelations(null)
    setOutcomes({})
    const timer = setTimeout(
      () =>
        api<Page<Relation>>('GET', `/api/customers/${customerId}/relations/${query({ page_size: 50 })}`)
          .then((page) => current && setRelations(page.results))
          .catch((e) => current && !(e instanceof ApiError && e.status === 401) && setError(messageOf(e))),
      delayMs,
    )
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [customerId])

  if (error !== null) return <ErrorLine message={error} />
  if (relations === null || relations.length === 0) return null

  const checkIn = async (relation: Relation) => {
    const result = await checkInById(relation.related_customer_id, gym.id)
    if (result === null) return
    setOutcomes((o) => ({ ...o, [relation.related_customer_id]: result }))
    onResult?.(result)
  }
  const checkInAll = async () => {
    setBusy(true)
    for (const r of relations) if (outcomes[r.related_customer_id]?.kind !== 'checked_in') await checkIn(r)
    setBusy(false)
  }

  return (
    <section class="family" aria-label="Family">
      <div class="family-head">
        <h3>Family</h3>
        {relations.length > 1 && (
          <button type="button" class="small" disabled={busy} onClick={() => void checkInAll()}>
            Check in all
          </button>
        )}
      </div>
      <ul>
        {relations.map((r) => {
          const name = fullName(r.related_customer_first_name, r.related_customer_last_name)
          const outcome = outcomes[r.related_customer_id]
          const words = outcome && outcomeWords(outcome)
          return (
            <li key={r.id}>
              <span>
                {name} <span class="relation">({RELATIONS[r.relation] ?? 'family'})</span>
              </span>
              {words ? (
                <span class={`family-outcome ${words.tone}`} role="status">
                  {words.text}
                </span>
              ) : (
                <button
                  type="button"
                  class="small"
                  aria-label={`Check in ${name}`}
                  onClick={() => void checkIn(r)}
                >
                  Check in
                </button>
              )}
            </li>
          )
        })}
      </ul>
    </section>
  )
}

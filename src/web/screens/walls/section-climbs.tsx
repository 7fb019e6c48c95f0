import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import { Confirm } from '../../components/confirm.tsx'
import type { Climb, Section } from '../../types.ts'
import { climbHex, climbWords, resetQuestion, sectionFacts, upWords } from './wall-words.ts'
import { Swatch } from './swatch.tsx'

/** What a change did, or the API's refusal in its words. */
export interface Said {
  text: string
  refused: boolean
}

/**
 * One section: its facts and Reset (which asks first, saying how many climbs come down), the add
 * form given as children, then its climbs up, each with a tick for its card and Strip (which asks first too). The ticks start on
 * the climbs set today, the ones a setter prints cards for; Print cards prints the ticked ones.
 */
export function SectionClimbs({
  gymId,
  section,
  climbs,
  ticked,
  hideSetter,
  onTick,
  onChanged,
  children,
}: {
  gymId: number
  section: Section
  /** Null while they are read. */
  climbs: Climb[] | null
  ticked: (climb: Climb) => boolean
  hideSetter: boolean
  onTick: (ids: number[], on: boolean) => void
  /** After a change (or its refusal): everything is read again and `said` shown. */
  onChanged: (said: Said | null) => Promise<void>
  /** What goes between the section's facts and its climbs: the add form. */
  children?: ComponentChildren
}) {
  const [asking, setAsking] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // A question asked about another section is not this one's: the form inside stays, with its focus.
  useEffect(() => setAsking(null), [section.id])
  /** Keep: the question goes, and the focus back to the button that asked it. */
  const keep = (asker: string) => {
    setAsking(null)
    setTimeout(() => document.querySelector<HTMLElement>(`[aria-label="${CSS.escape(asker)}"]`)?.focus())
  }
  const act = async (request: () => Promise<string>) => {
    if (busy) return
    setBusy(true)
    setAsking(null)
    let said: Said | null
    try {
      said = { text: await request(), refused: false }
    } catch (e) {
      said = e instanceof ApiError && e.status === 401 ? null : { text: messageOf(e), refused: true }
    }
    await onChanged(said)
    setBusy(false)
  }

  const up = climbs?.length ?? section.climbs_up
  const reset = () =>
    act(async () => {
      await api('POST', `/api/gyms/${gymId}/sections/${section.id}/reset/`, {})
      return up === 1
        ? `${section.name} is reset: 1 climb came down.`
        : `${section.name} is reset: ${up} climbs came down.`
    })
  const strip = (climb: Climb) =>
    act(async () => {
      await api('POST', `/api/gyms/${gymId}/climbs/${climb.id}/strip/`, {})
      return `${climbWords(climb)} is stripped.`
    })

  const printed = climbs?.filter(ticked) ?? []
  const resetLabel = `Reset ${section.name}`
  return (
    <section class="section-climbs" aria-labelledby="section-heading">
      <div class="section-head">
        <div>
          <h2 id="section-heading">{section.name}</h2>
          <p class="muted">{sectionFacts({ ...section, climbs_up: up })}</p>
        </div>
        {asking !== 'reset' && (
          <button
            type="button"
            class="quiet"
            disabled={busy}
            aria-label={resetLabel}
            onClick={() => setAsking('reset')}
          >
            Reset section
          </button>
        )}
      </div>
      {asking === 'reset' && (
        <Confirm
          question={resetQuestion(section, up)}
          yes="Yes, reset it"
          onYes={() => void reset()}
          onKeep={() => keep(resetLabel)}
        />
      )}
      {children}
      <div class="print-bar">
        <h3>Climbs up</h3>
        {climbs !== null && climbs.length > 0 && (
          <>
            <button
              type="button"
              class="quiet"
              onClick={() =>
                onTick(
                  climbs.map((c) => c.id),
                  printed.length < climbs.length,
                )
              }
            >
              {printed.length < climbs.length ? 'Tick all' : 'Untick all'}
            </button>
            <button type="button" disabled={printed.length === 0} onClick={() => window.print()}>
              {printed.length === 0
                ? 'Print cards'
                : printed.length === 1
                  ? 'Print 1 card'
                  : `Print ${printed.length} cards`}
            </button>
          </>
        )}
      </div>
      {hideSetter && climbs !== null && climbs.length > 0 && (
        <p class="muted">The cards leave the setters out: the gym keeps them hidden.</p>
      )}
      {climbs === null ? (
        <p>Loading the climbs…</p>
      ) : climbs.length === 0 ? (
        <p class="muted">No climbs are up in {section.name}.</p>
      ) : (
        <ul class="climbs">
          {climbs.map((climb) => {
            const words = climbWords(climb)
            const stripLabel = `Strip ${words}`
            return (
              <li key={climb.id}>
                <label class="tick card-tick">
                  <input
                    type="checkbox"
                    checked={ticked(climb)}
                    aria-label={`Print the card of ${words}`}
                    onChange={(e) => onTick([climb.id], e.currentTarget.checked)}
                  />
                  Card
                </label>
                <span class="climb-grade">{climb.grade_name}</span>
                <Swatch hex={climbHex(climb)} />
                <div class="climb-what">
                  <span class="climb-words">
                    {words.slice(climb.grade_name.length).trim() || 'No colour'}
                  </span>
                  <span class="muted">
                    {upWords(climb)}
                    {climb.setter_names.length > 0 && ` · ${climb.setter_names.join(', ')}`}
                  </span>
                </div>
                {asking === `strip-${climb.id}` ? (
                  <Confirm
                    question={`Strip ${words}? It comes down today.`}
                    yes="Yes, strip it"
                    onYes={() => void strip(climb)}
                    onKeep={() => keep(stripLabel)}
                  />
                ) : (
                  <button
                    type="button"
                    class="quiet"
                    disabled={busy}
                    aria-label={stripLabel}
                    onClick={() => setAsking(`strip-${climb.id}`)}
                  >
                    Strip
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}

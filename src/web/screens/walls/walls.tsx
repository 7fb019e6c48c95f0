import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { fullName, todayIn } from '../../format.ts'
import type { Account, Climb, Section } from '../../types.ts'
import type { ScreenProps } from '../screen-props.ts'
import { ClimbForm, EMPTY_DRAFT, type Draft } from './climb-form.tsx'
import { GradeCurve } from './grade-curve.tsx'
import { RouteCards } from './route-cards.tsx'
import { SectionClimbs, type Said } from './section-climbs.tsx'
import { useWalls, type WallData } from './wall-data.ts'
import {
  climbWords,
  gradesFor,
  KIND_WORDS,
  kindOf,
  ROPE_KINDS,
  SCALES,
  sectionFacts,
  sectionsFor,
  type WallKind,
} from './wall-words.ts'
import './walls.css'

const KINDS: WallKind[] = ['BOU', 'ROP']

/** Up and down move between the sections, as in any list; Enter or Space opens one. */
function moveThroughSections(event: KeyboardEvent) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
  const list = event.currentTarget as HTMLElement
  const stops = [...list.querySelectorAll<HTMLElement>('button.section-item')]
  const at = stops.indexOf(document.activeElement as HTMLElement)
  const next = stops[at + (event.key === 'ArrowDown' ? 1 : -1)]
  if (at === -1 || next === undefined) return
  event.preventDefault()
  next.focus()
}

/**
 * Where the screen opens: at the newest climb's discipline and section, the form holding its grade,
 * colour and setters (the last climb added, whoever added it); in an empty gym, at the boulders
 * (or the ropes, when only they have sections), the signed-in setter ticked when a climb names them.
 */
function startingPoint(data: WallData, account: Account) {
  const { newest, sections } = data
  if (newest !== null) {
    const kind = kindOf(newest.discipline)
    const draft: Draft = {
      gradeId: newest.grade_id,
      colour: newest.hold_color,
      name: '',
      ropeKind: ROPE_KINDS.find((k) => k === newest.discipline) ?? EMPTY_DRAFT.ropeKind,
      setterIds: newest.setter_ids,
    }
    const inKind = sectionsFor(kind, sections)
    const section = inKind.find((s) => s.id === newest.section_id) ?? inKind[0]
    return { kind, sectionId: section?.id ?? null, draft }
  }
  const kind: WallKind =
    sectionsFor('BOU', sections).length === 0 && sectionsFor('ROP', sections).length > 0 ? 'ROP' : 'BOU'
  const me = fullName(account.first_name, account.last_name)
  const self = data.setters.filter((s) => me !== '' && s.name === me)
  return {
    kind,
    sectionId: sectionsFor(kind, sections)[0]?.id ?? null,
    draft: { ...EMPTY_DRAFT, setterIds: self.map((s) => s.id) },
  }
}

/**
 * The setters' screen: the gym's sections for boulders or ropes with the chosen one's climbs up,
 * adding a climb from the keyboard, stripping a climb and resetting a section (each asks first),
 * the grade curve against its targets, and route cards to print for the climbs ticked.
 */
export function WallsScreen({ account, gym }: ScreenProps) {
  const today = todayIn(gym.time_zone)
  const [kind, setKind] = useState<WallKind>('BOU')
  const [sectionId, setSectionId] = useState<number | null>(null)
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT)
  const [started, setStarted] = useState(false)
  const [said, setSaid] = useState<Said | null>(null)
  /** Ticks changed by hand; the others follow the rule (set today). */
  const [ticks, setTicks] = useState<ReadonlyMap<number, boolean>>(new Map())
  const gradeRef = useRef<HTMLSelectElement>(null)
  const { data, climbs, error, reload, reloadClimbs } = useWalls(gym.id, sectionId)

  useEffect(() => {
    if (data === null || started) return
    const start = startingPoint(data, account)
    setKind(start.kind)
    setSectionId(start.sectionId)
    setDraft(start.draft)
    setStarted(true)
    setTimeout(() => gradeRef.current?.focus())
  }, [data])

  if (data === null)
    return (
      <main class="walls">
        <ErrorLine message={error} />
        {error === null && <p>Loading the walls…</p>}
      </main>
    )

  const sections = sectionsFor(kind, data.sections)
  const grades = gradesFor(kind, data.grades)
  const section = sections.find((s) => s.id === sectionId) ?? null
  const setters = data.setters
  const ticked = (climb: Climb) => ticks.get(climb.id) ?? climb.set_date === today

  const chooseKind = (next: WallKind) => {
    if (next === kind) return
    setKind(next)
    setSaid(null)
    if (!sectionsFor(next, data.sections).some((s) => s.id === sectionId))
      setSectionId(sectionsFor(next, data.sections)[0]?.id ?? null)
  }
  const changed = async (next: Said | null) => {
    await Promise.all([reload(), reloadClimbs()])
    setSaid(next)
  }
  const added = async (climb: Climb) => {
    setTicks((now) => new Map(now).set(climb.id, true))
    await changed({ text: `Added ${climbWords(climb)} to ${climb.section_name}.`, refused: false })
    gradeRef.current?.focus()
  }
  const tick = (ids: number[], on: boolean) =>
    setTicks((now) => {
      const next = new Map(now)
      for (const id of ids) next.set(id, on)
      return next
    })

  return (
    <main class="walls">
      <div class="walls-top">
        <div role="group" aria-label="Discipline" class="wall-kinds">
          {KINDS.map((k) => (
            <button
              key={k}
              type="button"
              class="quiet"
              aria-pressed={k === kind}
              onClick={() => chooseKind(k)}
            >
              {KIND_WORDS[k]}
            </button>
          ))}
        </div>
        {said &&
          (said.refused ? (
            <ErrorLine message={said.text} />
          ) : (
            <p class="done" role="status">
              {said.text}
            </p>
          ))}
        <ErrorLine message={error} />
      </div>
      <div class="walls-body">
        <section class="section-list" aria-labelledby="section-list-heading">
          <h2 id="section-list-heading">Sections</h2>
          {sections.length === 0 ? (
            <p class="muted">No sections for {KIND_WORDS[kind].toLowerCase()} yet.</p>
          ) : (
            <ul onKeyDown={moveThroughSections}>
              {sections.map((s) => (
                <li key={s.id}>
                  <button
                    type="button"
                    class="section-item"
                    aria-current={s.id === sectionId ? 'true' : undefined}
                    onClick={() => {
                      setSectionId(s.id)
                      setSaid(null)
                    }}
                  >
                    <span class="section-name">{s.name}</span>
                    <span class="section-facts">{sectionFacts(s)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <NewSection
            gymId={gym.id}
            kind={kind}
            onAdded={async (s) => {
              await changed({ text: `${s.name} is added.`, refused: false })
              setSectionId(s.id)
            }}
          />
        </section>
        <div class="section-detail">
          {grades.length === 0 && <LoadScale gymId={gym.id} kind={kind} onChanged={changed} />}
          {section !== null && (
            <SectionClimbs
              gymId={gym.id}
              section={section}
              climbs={climbs}
              ticked={ticked}
              hideSetter={data.gym.hide_setter}
              onTick={tick}
              onChanged={changed}
            >
              {grades.length > 0 && (
                <ClimbForm
                  gymId={gym.id}
                  kind={kind}
                  grades={grades}
                  stats={data.stats[kind]}
                  sections={sections}
                  sectionId={section.id}
                  setters={setters}
                  draft={draft}
                  gradeRef={gradeRef}
                  onSection={(id) => {
                    setSectionId(id)
                    setSaid(null)
                  }}
                  onDraft={(change) => setDraft((now) => ({ ...now, ...change }))}
                  onAdded={added}
                />
              )}
            </SectionClimbs>
          )}
        </div>
        <GradeCurve stats={data.stats[kind]} />
      </div>
      {section !== null && climbs !== null && (
        <RouteCards climbs={climbs.filter(ticked)} hideSetter={data.gym.hide_setter} />
      )}
    </main>
  )
}

/** A discipline without grades: the standard scales the API can add, one button each. */
function LoadScale({
  gymId,
  kind,
  onChanged,
}: {
  gymId: number
  kind: WallKind
  onChanged: (said: Said | null) => Promise<void>
}) {
  const [busy, setBusy] = useState(false)
  const load = async (system: string, words: string) => {
    setBusy(true)
    let said: Said | null
    try {
      await api('POST', `/api/gyms/${gymId}/grades/load-scale/`, { system, discipline: kind })
      said = { text: `The ${words} is added.`, refused: false }
    } catch (e) {
      said = e instanceof ApiError && e.status === 401 ? null : { text: messageOf(e), refused: true }
    }
    await onChanged(said)
    setBusy(false)
  }
  return (
    <section class="load-scale" aria-labelledby="load-scale-heading">
      <h2 id="load-scale-heading">No grades for {KIND_WORDS[kind].toLowerCase()} yet</h2>
      <p>Add a standard scale to start setting:</p>
      <div class="actions">
        {SCALES[kind].map((scale) => (
          <button
            key={scale.system}
            type="button"
            disabled={busy}
            onClick={() => void load(scale.system, scale.words)}
          >
            Add the {scale.words}
          </button>
        ))}
      </div>
    </section>
  )
}

/** A new section for the discipline shown, by its name. */
function NewSection({
  gymId,
  kind,
  onAdded,
}: {
  gymId: number
  kind: WallKind
  onAdded: (section: Section) => Promise<void>
}) {
  const [name, setName] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const add = async (event: Event) => {
    event.preventDefault()
    if (busy) return
    setBusy(true)
    setProblem(null)
    try {
      const section = await api<Section>('POST', `/api/gyms/${gymId}/sections/`, {
        name: name.trim(),
        discipline: kind,
      })
      setName('')
      await onAdded(section)
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) setProblem(messageOf(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <details class="new-section">
      <summary>New section</summary>
      <form onSubmit={add} noValidate>
        <label>
          Name
          <input
            name="section-name"
            autocomplete="off"
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          Add section
        </button>
        <ErrorLine message={problem} />
      </form>
    </details>
  )
}

import type { RefObject } from 'preact'
import { useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import type { Climb, ClimbDiscipline, ClimbStats, Grade, Section } from '../../types.ts'
import { Swatch } from './swatch.tsx'
import type { Setter } from './wall-data.ts'
import {
  CLIMB_KIND_WORDS,
  colourHex,
  HOLD_COLOURS,
  refusalLines,
  ROPE_KINDS,
  type WallKind,
} from './wall-words.ts'

/** What the form holds between climbs: all but the name stays for the next one. */
export interface Draft {
  gradeId: number | null
  colour: string
  name: string
  /** A rope climb's kind (top rope, lead, auto-belay); a boulder is always a boulder. */
  ropeKind: ClimbDiscipline
  setterIds: number[]
}

export const EMPTY_DRAFT: Draft = { gradeId: null, colour: '', name: '', ropeKind: 'TR', setterIds: [] }

/** Letters typed within this of each other make one name, as a list's own typing does. */
const TYPING_PAUSE_MS = 1000

/**
 * A list that picks what is typed: the name typed in full ("V1" is V1, never V10, whichever is
 * chosen now), else the first name, in the list's order, that starts with it. A list's own typing
 * searches on from the choice it has, so "V1" typed at V4 found V10. Leaving the list ends a name:
 * "V4", Tab, "teal", Enter and "V1" at once is V1, not "V4V1".
 */
function useTypeToPick<T extends { id: number; name: string }>(items: T[], pick: (id: number) => void) {
  const typed = useRef({ text: '', at: 0 })
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return
    const now = Date.now()
    const text = (now - typed.current.at < TYPING_PAUSE_MS ? typed.current.text : '') + event.key
    // A space that starts nothing opens the list, as it always does.
    if (text === ' ') return
    event.preventDefault()
    typed.current = { text, at: now }
    const wanted = text.toLowerCase()
    const found =
      items.find((item) => item.name.toLowerCase() === wanted) ??
      items.find((item) => item.name.toLowerCase().startsWith(wanted))
    if (found !== undefined) pick(found.id)
  }
  const onBlur = () => {
    typed.current = { text: '', at: 0 }
  }
  return { onKeyDown, onBlur }
}

/** A grade as the form offers it: its name first (typing "V4" picks it), then what is up of it. */
function gradeOption(grade: Grade, stats: ClimbStats | null): string {
  const row = stats?.by_grade.find((g) => g.grade_id === grade.id)
  if (row === undefined) return grade.name
  return row.target_count === null
    ? `${grade.name} · ${row.up} up`
    : `${grade.name} · ${row.up} up of ${row.target_count}`
}

/**
 * Adding a climb from the keyboard: the grade has the focus (the section is a Shift+Tab before it),
 * typed ("V4"), Tab, the colour, Enter. The section, the setters and, for ropes, the kind stay as
 * they were for the next climb, and so do the grade and the colour, so a second climb like the
 * last is one Enter. Enter anywhere in the form adds; the grade has the focus again after each. The
 * API's refusal shows under the form, in the form's words.
 */
export function ClimbForm({
  gymId,
  kind,
  grades,
  stats,
  sections,
  sectionId,
  setters,
  draft,
  gradeRef,
  onSection,
  onDraft,
  onAdded,
}: {
  gymId: number
  kind: WallKind
  /** The discipline's active grades, easiest first. */
  grades: Grade[]
  stats: ClimbStats | null
  sections: Section[]
  sectionId: number
  setters: Setter[]
  draft: Draft
  gradeRef: RefObject<HTMLSelectElement | null>
  onSection: (id: number) => void
  onDraft: (change: Partial<Draft>) => void
  onAdded: (climb: Climb) => Promise<void>
}) {
  const [sending, setSending] = useState(false)
  const [problems, setProblems] = useState<string[]>([])
  const typeGrade = useTypeToPick(grades, (id) => onDraft({ gradeId: id }))
  const typeSection = useTypeToPick(sections, onSection)
  // A grade of the other discipline (the screen switched) gives way to this one's easiest.
  const gradeId = grades.some((g) => g.id === draft.gradeId) ? draft.gradeId : (grades[0]?.id ?? null)

  const add = async (event: Event) => {
    event.preventDefault()
    if (sending || gradeId === null) return
    const colour = draft.colour.trim()
    const hex = colourHex(colour)
    setSending(true)
    setProblems([])
    let climb: Climb
    try {
      climb = await api<Climb>('POST', `/api/gyms/${gymId}/climbs/`, {
        section_id: sectionId,
        grade_id: gradeId,
        discipline: kind === 'BOU' ? 'BOU' : draft.ropeKind,
        hold_color: colour.toLowerCase(),
        ...(hex !== null && { color_hex: hex }),
        name: draft.name.trim(),
        setter_ids: draft.setterIds,
      })
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401))
        setProblems(e instanceof ApiError && e.status === 400 ? refusalLines(e.body) : [messageOf(e)])
      return
    } finally {
      setSending(false)
    }
    onDraft({ gradeId, name: '' })
    await onAdded(climb)
  }

  /**
   * Enter on a list or a tick adds, as Enter in a text field does: the keyboard never leaves the
   * form. On the section, which is chosen before the climbs it takes, Enter goes on to the grade.
   */
  const enterAdds = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement
    const ticks = target instanceof HTMLInputElement && target.type === 'checkbox'
    if (event.key !== 'Enter' || !(target instanceof HTMLSelectElement || ticks)) return
    event.preventDefault()
    if (target instanceof HTMLSelectElement && target.name === 'section') gradeRef.current?.focus()
    else (event.currentTarget as HTMLFormElement).requestSubmit()
  }

  const toggleSetter = (id: number, on: boolean) =>
    onDraft({ setterIds: on ? [...draft.setterIds, id] : draft.setterIds.filter((s) => s !== id) })
  const hex = colourHex(draft.colour)

  return (
    <form
      class="climb-form"
      onSubmit={add}
      onKeyDown={enterAdds}
      noValidate
      aria-labelledby="climb-form-heading"
    >
      <h3 id="climb-form-heading">Add a climb</h3>
      <div class="climb-fields">
        <label>
          Section
          <select name="section" value={sectionId} onChange={(e) => onSection(Number(e.currentTarget.value))}>
            {sections.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label class="grade-field">
          Grade
          <select
            ref={gradeRef}
            name="grade"
            value={gradeId ?? ''}
            {...typeGrade}
            onChange={(e) => onDraft({ gradeId: Number(e.currentTarget.value) })}
          >
            {grades.map((g) => (
              <option key={g.id} value={g.id}>
                {gradeOption(g, stats)}
              </option>
            ))}
          </select>
        </label>
        <label class="colour-field">
          Colour
          <span class="colour-input">
            <Swatch hex={hex} />
            <input
              name="colour"
              list="hold-colours"
              autocomplete="off"
              maxLength={50}
              value={draft.colour}
              onInput={(e) => onDraft({ colour: e.currentTarget.value })}
            />
          </span>
          <datalist id="hold-colours">
            {Object.keys(HOLD_COLOURS).map((word) => (
              <option key={word} value={word} />
            ))}
          </datalist>
        </label>
        <button type="submit" disabled={sending || gradeId === null}>
          Add climb
        </button>
      </div>
      <div class="climb-fields">
        <label class="name-field">
          Name (if any)
          <input
            name="name"
            autocomplete="off"
            maxLength={100}
            value={draft.name}
            onInput={(e) => onDraft({ name: e.currentTarget.value })}
          />
        </label>
        {kind === 'ROP' && (
          <label>
            Type
            <select
              name="type"
              value={draft.ropeKind}
              onChange={(e) => onDraft({ ropeKind: e.currentTarget.value as ClimbDiscipline })}
            >
              {ROPE_KINDS.map((k) => (
                <option key={k} value={k}>
                  {CLIMB_KIND_WORDS[k]}
                </option>
              ))}
            </select>
          </label>
        )}
        <fieldset class="setters">
          <legend>Setters</legend>
          {setters.length === 0 ? (
            <p class="muted">No setters on record yet: an admin adds the first climb, naming its setters.</p>
          ) : (
            setters.map((s) => (
              <label key={s.id} class="tick">
                <input
                  type="checkbox"
                  name="setter"
                  value={s.id}
                  checked={draft.setterIds.includes(s.id)}
                  onChange={(e) => toggleSetter(s.id, e.currentTarget.checked)}
                />
                {s.name}
              </label>
            ))
          )}
        </fieldset>
      </div>
      {problems.map((line) => (
        <p key={line} class="error" role="alert">
          {line}
        </p>
      ))}
    </form>
  )
}

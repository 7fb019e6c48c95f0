/**
 * What the Walls screen reads: the gym (its hide_setter as it is now), its grades and sections, the
 * newest climb (the form starts from it), each discipline's stats, the chosen section's climbs up,
 * and whom a climb may name as its setters.
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf, query } from '../../api.ts'
import type { Climb, ClimbStats, Grade, Gym, Page, Section, SetterChoice } from '../../types.ts'
import type { WallKind } from './wall-words.ts'

/** The largest page the API gives. */
const PAGE_SIZE = 100

/** Every record of a collection for `params`, a page at a time. */
async function readAll<T>(
  path: string,
  params: Record<string, string | number | boolean> = {},
): Promise<T[]> {
  const all: T[] = []
  for (let page = 1; ; page++) {
    const got = await api<Page<T>>('GET', `${path}${query({ ...params, page_size: PAGE_SIZE, page })}`)
    all.push(...got.results)
    if (got.next === null || got.results.length === 0) return all
  }
}

/** Someone who may be named as a climb's setter. */
export interface Setter {
  id: number
  name: string
}

export interface WallData {
  gym: Gym
  grades: Grade[]
  sections: Section[]
  stats: Record<WallKind, ClimbStats>
  /** The climb added last (newest set date, then id), which the form starts from; null: none yet. */
  newest: Climb | null
  /** Whom a climb may name, by name: the gym's setters, admins, and whoever set here. */
  setters: Setter[]
}

const gymPath = (gymId: number) => `/api/gyms/${gymId}`

async function readWalls(gymId: number): Promise<WallData> {
  const at = gymPath(gymId)
  const [gym, grades, sections, boulders, ropes, newest, setters] = await Promise.all([
    api<Gym>('GET', `${at}/`),
    readAll<Grade>(`${at}/grades/`, { is_active: true }),
    readAll<Section>(`${at}/sections/`, { is_active: true }),
    api<ClimbStats>('GET', `${at}/climbs/stats/${query({ discipline: 'BOU' })}`),
    api<ClimbStats>('GET', `${at}/climbs/stats/${query({ discipline: 'ROP' })}`),
    api<Page<Climb>>('GET', `${at}/climbs/${query({ page_size: 1 })}`),
    api<SetterChoice[]>('GET', `${at}/climbs/setters/`),
  ])
  return {
    gym,
    grades,
    sections,
    stats: { BOU: boulders, ROP: ropes },
    newest: newest.results[0] ?? null,
    setters: setters.map((s) => ({ id: s.setter_id, name: s.name })),
  }
}

/** The climbs up in one section, newest first. */
export const readSectionClimbs = (gymId: number, sectionId: number): Promise<Climb[]> =>
  readAll<Climb>(`${gymPath(gymId)}/climbs/`, { section_id: sectionId, is_up: true })

/** Nothing to say after a 401: the desk goes back to the login. */
const quietly = (e: unknown) => (e instanceof ApiError && e.status === 401 ? null : messageOf(e))

/**
 * The screen's data, read when it opens; `reload` reads it again after a change the desk made, and
 * `reloadClimbs` the chosen section's climbs. An answer for a section no longer chosen is dropped.
 */
export function useWalls(gymId: number, sectionId: number | null) {
  const [data, setData] = useState<WallData | null>(null)
  const [climbs, setClimbs] = useState<{ sectionId: number; climbs: Climb[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const wanted = useRef(sectionId)
  wanted.current = sectionId

  const reload = async () => {
    try {
      setData(await readWalls(gymId))
      setError(null)
    } catch (e) {
      setError(quietly(e))
    }
  }
  const reloadClimbs = async () => {
    const asked = wanted.current
    if (asked === null) return
    try {
      const read = await readSectionClimbs(gymId, asked)
      if (wanted.current === asked) setClimbs({ sectionId: asked, climbs: read })
    } catch (e) {
      setError(quietly(e))
    }
  }

  useEffect(() => {
    void reload()
  }, [gymId])
  useEffect(() => {
    void reloadClimbs()
  }, [gymId, sectionId])

  return {
    data,
    climbs: climbs !== null && climbs.sectionId === sectionId ? climbs.climbs : null,
    error,
    reload,
    reloadClimbs,
  }
}

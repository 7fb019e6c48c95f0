import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiError, messageOf, query } from '../../api.ts'
import { fullName, wallClockTime } from '../../format.ts'
import { occupancyLevel } from './occupancy.ts'
import type { ScreenProps } from '../screen-props.ts'
import type { CheckInRecord, Page } from '../../types.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { useDeferredCheckOuts } from './deferred-check-outs.ts'
import { ALL_OF_TODAY, filterQuery, TodayFilters, type TodayFilter } from './today-filters.tsx'
import './today.css'

/** A scan at a door shows here within this and one request's time. */
const REFRESH_MS = 1000
/** The list shows the newest; the count says how many the day has. */
const SHOWN = 100

interface Day {
  checkIns: Page<CheckInRecord>
  /** Checked in today and not checked out. */
  inside: number
}

/** The day's check-ins at this gym, newest first, kept fresh, with check-out and occupancy now. */
export function TodayScreen({ gym }: ScreenProps) {
  const [day, setDay] = useState<Day | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [filter, setFilter] = useState<TodayFilter>(ALL_OF_TODAY)
  // The refresh loop reads the filter as it is now, not as it was when the loop started.
  const filterRef = useRef(filter)
  filterRef.current = filter

  const today = { location_id: gym.id, this_calendar_day: true }
  const load = async () => {
    const listed = { ...today, ...filterQuery(filterRef.current), page_size: SHOWN }
    const [checkIns, stillIn] = await Promise.all([
      api<Page<CheckInRecord>>('GET', `/api/check-ins/${query(listed)}`),
      api<Page<CheckInRecord>>(
        'GET',
        `/api/check-ins/${query({ ...today, has_checked_out: false, page_size: 1 })}`,
      ),
    ])
    setDay({ checkIns, inside: stillIn.count })
    setError(null)
  }

  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    // Each refresh waits for the one before, so a slow answer never piles requests up.
    const refresh = async () => {
      try {
        await load()
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return
        setError(messageOf(e))
      }
      if (!stopped) timer = setTimeout(refresh, REFRESH_MS)
    }
    void refresh()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [gym.id])

  const sendCheckOut = async (id: number) => {
    try {
      await api('POST', `/api/check-ins/${id}/check-out/`)
      await load()
    } catch (e) {
      setError(messageOf(e))
    }
  }
  const checkOuts = useDeferredCheckOuts(sendCheckOut)
  const changeFilter = (next: TodayFilter) => {
    setFilter(next)
    filterRef.current = next
    void load().catch((e: unknown) => setError(messageOf(e)))
  }

  if (day === null)
    return (
      <main class="today">{error ? <p role="alert">{error}</p> : <p>Loading today's check-ins…</p>}</main>
    )
  const { checkIns, inside } = day
  const level = occupancyLevel(inside, gym.capacity)
  const words = filter.name.toLowerCase().split(/\s+/).filter(Boolean)
  const shown = checkIns.results.filter((c) => {
    const name = fullName(c.customer_first_name, c.customer_last_name).toLowerCase()
    return words.every((word) => name.includes(word))
  })
  return (
    <main class="today">
      <p class={`occupancy ${level}`}>
        Inside now: {inside}
        {gym.capacity !== null && ` of ${gym.capacity} (${Math.round((inside / gym.capacity) * 100)}%)`}
      </p>
      <TodayFilters filter={filter} onChange={changeFilter} />
      <ErrorLine message={error} />
      <table>
        <caption>
          {checkIns.count === 1 ? '1 check-in' : `${checkIns.count} check-ins`} today at {gym.name}
          {filter.presence === 'inside' && ', still inside'}
          {filter.presence === 'left' && ', checked out'}
          {checkIns.count > checkIns.results.length && `, the newest ${checkIns.results.length} shown`}
          {shown.length < checkIns.results.length && `; ${shown.length} named "${filter.name.trim()}"`}
        </caption>
        <thead>
          <tr>
            <th scope="col">In</th>
            <th scope="col">Name</th>
            <th scope="col">Entry</th>
            <th scope="col">Out</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((c) => {
            const name = fullName(c.customer_first_name, c.customer_last_name)
            return (
              <tr key={c.id}>
                <td>{wallClockTime(c.check_in_datetime)}</td>
                <td>{name}</td>
                <td>{c.entry_method_description}</td>
                <td>
                  <CheckOutCell
                    record={c}
                    name={name}
                    waiting={checkOuts.waiting.has(c.id)}
                    onCheckOut={() => checkOuts.checkOut(c.id)}
                    onUndo={() => checkOuts.undo(c.id)}
                  />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </main>
  )
}

/** The time they left; or a check-out that waits for an Undo; or the button that starts one. */
function CheckOutCell(props: {
  record: CheckInRecord
  name: string
  waiting: boolean
  onCheckOut(): void
  onUndo(): void
}) {
  const { record, name, waiting } = props
  if (record.check_out_datetime !== null) return <>{wallClockTime(record.check_out_datetime)}</>
  if (waiting)
    return (
      <span class="leaving" role="status">
        Checking out…{' '}
        <button class="quiet" onClick={props.onUndo} aria-label={`Undo checking out ${name}`}>
          Undo
        </button>
      </span>
    )
  return (
    <button class="quiet small" onClick={props.onCheckOut} aria-label={`Check out ${name}`}>
      Check out
    </button>
  )
}

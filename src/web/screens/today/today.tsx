import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, messageOf, query } from '../../api.ts'
import { fullName, wallClockTime } from '../../format.ts'
import { occupancyLevel } from './occupancy.ts'
import type { ScreenProps } from '../screen-props.ts'
import type { CheckInRecord, Page } from '../../types.ts'
import { ErrorLine } from '../../components/error-line.tsx'

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

  const today = { location_id: gym.id, this_calendar_day: true }
  const load = async () => {
    const [checkIns, stillIn] = await Promise.all([
      api<Page<CheckInRecord>>('GET', `/api/check-ins/${query({ ...today, page_size: SHOWN })}`),
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

  const checkOut = async (record: CheckInRecord) => {
    try {
      await api('POST', `/api/check-ins/${record.id}/check-out/`)
      await load()
    } catch (e) {
      setError(messageOf(e))
    }
  }

  if (day === null)
    return (
      <main class="today">{error ? <p role="alert">{error}</p> : <p>Loading today's check-ins…</p>}</main>
    )
  const { checkIns, inside } = day
  const level = occupancyLevel(inside, gym.capacity)
  return (
    <main class="today">
      <p class={`occupancy ${level}`}>
        Inside now: {inside}
        {gym.capacity !== null && ` of ${gym.capacity} (${Math.round((inside / gym.capacity) * 100)}%)`}
      </p>
      <ErrorLine message={error} />
      <table>
        <caption>
          {checkIns.count === 1 ? '1 check-in' : `${checkIns.count} check-ins`} today at {gym.name}
          {checkIns.count > checkIns.results.length && `, the newest ${checkIns.results.length} shown`}
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
          {checkIns.results.map((c) => {
            const name = fullName(c.customer_first_name, c.customer_last_name)
            return (
              <tr key={c.id}>
                <td>{wallClockTime(c.check_in_datetime)}</td>
                <td>{name}</td>
                <td>{c.entry_method_description}</td>
                <td>
                  {c.check_out_datetime === null ? (
                    <button class="small" onClick={() => void checkOut(c)} aria-label={`Check out ${name}`}>
                      Check out
                    </button>
                  ) : (
                    wallClockTime(c.check_out_datetime)
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </main>
  )
}

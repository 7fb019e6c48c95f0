import { useEffect, useState } from 'preact/hooks'
import { api, query } from '../../api.ts'
import type { CheckInRecord, Gym, Page } from '../../types.ts'
import { occupancyLevel } from '../today/occupancy.ts'

/** Often enough to follow the door's scans, rarely enough to cost the desk nothing. */
const REFRESH_MS = 10_000

/**
 * Who is inside now (checked in today, not out), read every few seconds; `bump` counts a check-in
 * the desk just made at once, without a request (the next read corrects it).
 */
export function useOccupancy(gym: Gym) {
  const [inside, setInside] = useState<number | null>(null)
  useEffect(() => {
    let stopped = false
    const read = () =>
      api<Page<CheckInRecord>>(
        'GET',
        `/api/check-ins/${query({ location_id: gym.id, this_calendar_day: true, has_checked_out: false, page_size: 1 })}`,
      )
        .then((page) => !stopped && setInside(page.count))
        .catch(() => {})
    void read()
    const timer = setInterval(read, REFRESH_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [gym.id])
  return { inside, bump: () => setInside((n) => (n === null ? n : n + 1)) }
}

/** Whether one more check-in reaches the gym's capacity. */
export const atCapacity = (inside: number | null, capacity: number | null) =>
  inside !== null && capacity !== null && capacity > 0 && inside >= capacity

/**
 * Inside now against the capacity, as Today shows it; from 80% a warning card: amber nearly full,
 * red full. Staff decide who else comes in: nothing is refused for it.
 */
export function OccupancyNow({ gym, inside }: { gym: Gym; inside: number | null }) {
  if (inside === null) return null
  const level = occupancyLevel(inside, gym.capacity)
  const capacity = gym.capacity
  return (
    <>
      <p class={`occupancy ${level}`}>
        Inside now: {inside}
        {capacity !== null && ` of ${capacity}`}
      </p>
      {capacity !== null && level !== 'normal' && (
        <p class={`capacity-warning ${atCapacity(inside, capacity) ? 'full' : 'busy'}`} role="alert">
          {atCapacity(inside, capacity)
            ? `Gym full: ${inside} of ${capacity} inside. Staff decide who else comes in.`
            : `Nearly full: ${inside} of ${capacity} inside.`}
        </p>
      )}
    </>
  )
}

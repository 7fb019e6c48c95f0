import type { Ref } from 'preact'
import { useEffect, useRef } from 'preact/hooks'
import type { PinHolder } from '../types.ts'
import { filterHolders, sharedNames } from './pin-holders.ts'

/**
 * Arrows move between the filter box and the staff buttons, as in the customer finder's matches:
 * Down and Up from the box, all four between the buttons (they stand in a grid, read left to right).
 */
function moveThroughStaff(event: KeyboardEvent) {
  const on = document.activeElement as HTMLElement
  const inBox = on instanceof HTMLInputElement
  const step =
    event.key === 'ArrowDown' || (!inBox && event.key === 'ArrowRight')
      ? 1
      : event.key === 'ArrowUp' || (!inBox && event.key === 'ArrowLeft')
        ? -1
        : 0
  if (step === 0) return
  const picker = event.currentTarget as HTMLElement
  const stops = [...picker.querySelectorAll<HTMLElement>('input[name="staff-filter"], .pin-staff button')]
  const next = stops[stops.indexOf(on) + step]
  if (next === undefined) return
  event.preventDefault()
  next.focus()
}

/**
 * The staff who can act, as big buttons to pick from, and a box that filters them by name or email:
 * Enter in the box picks the first one left. Two of one name show their emails. The buttons are one
 * Tab stop (the one picked, else the first), so Tab goes from the box to the list to the PIN; the
 * one picked is scrolled into view as the list opens.
 */
export function StaffPicker({
  holders,
  chosen,
  filter,
  onFilter,
  onChoose,
  filterBox,
}: {
  holders: PinHolder[]
  chosen: string | null
  filter: string
  onFilter: (text: string) => void
  onChoose: (holder: PinHolder) => void
  filterBox: Ref<HTMLInputElement>
}) {
  const shown = filterHolders(holders, filter)
  const shared = sharedNames(holders)
  const list = useRef<HTMLUListElement>(null)
  useEffect(
    () => list.current?.querySelector('[aria-pressed="true"]')?.scrollIntoView({ block: 'nearest' }),
    [],
  )
  const tabStop = shown.some((holder) => holder.email === chosen) ? chosen : shown[0]?.email
  return (
    <div class="staff-picker" onKeyDown={moveThroughStaff}>
      <label>
        Find your name
        <input
          type="search"
          name="staff-filter"
          autocomplete="off"
          ref={filterBox}
          value={filter}
          onInput={(e) => onFilter(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return
            // Enter picks; it never confirms the prompt from here.
            e.preventDefault()
            if (shown[0] !== undefined) onChoose(shown[0])
          }}
        />
      </label>
      {shown.length === 0 ? (
        <p class="muted" role="status">
          No one by that name has a PIN.
        </p>
      ) : (
        <ul class="pin-staff" aria-label="Staff" ref={list}>
          {shown.map((holder) => (
            <li key={holder.id}>
              <button
                type="button"
                class="quiet"
                aria-pressed={holder.email === chosen}
                tabIndex={holder.email === tabStop ? 0 : -1}
                title={holder.email}
                onClick={() => onChoose(holder)}
              >
                {holder.name}
                {shared.has(holder.name) && <small>{holder.email}</small>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Which of the day's check-ins the list shows: by where they are now, and by how they came in. */
export interface TodayFilter {
  presence: 'all' | 'inside' | 'left'
  /** An entry method code (MEM, ENT, EVE, GUE, FRE), or all of them. */
  entry: string
  /** Words to find in the shown names, as typed. */
  name: string
}

export const ALL_OF_TODAY: TodayFilter = { presence: 'all', entry: 'all', name: '' }

const PRESENCE: [TodayFilter['presence'], string][] = [
  ['all', 'Everyone'],
  ['inside', 'Still inside'],
  ['left', 'Checked out'],
]

const ENTRIES: [string, string][] = [
  ['all', 'Every entry'],
  ['MEM', 'Members'],
  ['ENT', 'Passes'],
  ['EVE', 'Classes'],
  ['GUE', 'Guests'],
  ['FRE', 'Free entry'],
]

/** The filter's query parameters, in the check-ins list's own terms. */
export function filterQuery(filter: TodayFilter): Record<string, string | boolean | undefined> {
  return {
    has_checked_out: filter.presence === 'all' ? undefined : filter.presence === 'left',
    entry_method: filter.entry === 'all' ? undefined : filter.entry,
  }
}

/** A row of choices a finger can hit, and a box that narrows the list by name as it is typed. */
export function TodayFilters({
  filter,
  onChange,
}: {
  filter: TodayFilter
  onChange(filter: TodayFilter): void
}) {
  return (
    <div class="today-filters">
      <div role="group" aria-label="Where they are" class="segmented">
        {PRESENCE.map(([value, label]) => (
          <button
            key={value}
            type="button"
            class="quiet"
            aria-pressed={filter.presence === value}
            onClick={() => onChange({ ...filter, presence: value })}
          >
            {label}
          </button>
        ))}
      </div>
      <label class="inline">
        <span>Entry</span>
        <select value={filter.entry} onChange={(e) => onChange({ ...filter, entry: e.currentTarget.value })}>
          {ENTRIES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label class="inline">
        <span>Name</span>
        <input
          type="search"
          value={filter.name}
          placeholder="Find in the list"
          onInput={(e) => onChange({ ...filter, name: e.currentTarget.value })}
        />
      </label>
    </div>
  )
}

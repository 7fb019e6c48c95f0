import type { DeskPlace } from '../screen-props.ts'

/** One scan the strip remembers: whom, when (the desk's clock, HH:MM) and its card's colour. */
export interface RecentScan {
  key: number
  customerId: number | null
  name: string
  time: string
  tone: 'ok' | 'notice' | 'refused'
}

/** How many scans the strip keeps. */
export const RECENT_SHOWN = 10

const TONE_WORDS = { ok: 'in', notice: 'already inside or a notice', refused: 'not in' }

/** The last scans, newest first; one of a known customer opens their page. */
export function RecentScans({ scans, open }: { scans: RecentScan[]; open: (place: DeskPlace) => void }) {
  if (scans.length === 0) return null
  return (
    <section class="recent-scans" aria-label="Recent scans">
      <ol>
        {scans.map((s) => (
          <li key={s.key} class={s.tone}>
            {s.customerId === null ? (
              <span class="scan-chip" title={`${s.name}, ${s.time}: ${TONE_WORDS[s.tone]}`}>
                <span class="scan-time">{s.time}</span> <span class="scan-name">{s.name}</span>
                <span class="visually-hidden">: {TONE_WORDS[s.tone]}</span>
              </span>
            ) : (
              <button
                type="button"
                title={`${s.name}, ${s.time}: ${TONE_WORDS[s.tone]}`}
                onClick={() => open({ screen: 'customers', customerId: s.customerId! })}
              >
                <span class="scan-time">{s.time}</span> <span class="scan-name">{s.name}</span>
                <span class="visually-hidden">: {TONE_WORDS[s.tone]}</span>
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}

import type { Climb } from '../../types.ts'
import { capitalised, climbHex, climbKindWords, fullDayWords } from './wall-words.ts'

/**
 * The route cards the print shows, and nothing else of the page (walls.css): the grade large, the
 * hold colour as a band and a word, the name, the section (and a rope climb's kind), the set date,
 * and who set it unless the gym hides its setters.
 */
export function RouteCards({ climbs, hideSetter }: { climbs: Climb[]; hideSetter: boolean }) {
  return (
    <section class="route-cards" aria-hidden="true">
      {climbs.map((climb) => (
        <article key={climb.id} class="route-card">
          <CardBand hex={climbHex(climb)} />
          <p class="card-grade">{climb.grade_name}</p>
          <p class="card-colour">{capitalised(climb.hold_color)}</p>
          {climb.name !== '' && <p class="card-name">{climb.name}</p>}
          <p class="card-section">
            {climb.section_name}
            {climb.discipline !== 'BOU' && ` · ${climbKindWords(climb.discipline)}`}
          </p>
          <p class="card-date">Set {fullDayWords(climb.set_date)}</p>
          {!hideSetter && climb.setter_names.length > 0 && (
            <p class="card-setters">Set by {climb.setter_names.join(', ')}</p>
          )}
        </article>
      ))}
    </section>
  )
}

/** The hold colour across the card's top; striped when the colour is not known. */
function CardBand({ hex }: { hex: string | null }) {
  return hex === null ? <div class="card-band none" /> : <div class="card-band" style={{ background: hex }} />
}

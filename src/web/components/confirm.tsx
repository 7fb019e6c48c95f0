import { useFocusOnShow } from '../focus.ts'

/**
 * The question before a change that cannot be taken back (a booking cancelled, a wall stripped);
 * Keep (or Esc) leaves things as they are and has the focus when it shows, so a stray Enter keeps.
 */
export function Confirm({
  question,
  yes,
  onYes,
  onKeep,
}: {
  question: string
  yes: string
  onYes: () => void
  onKeep: () => void
}) {
  const keep = useFocusOnShow<HTMLButtonElement>()
  return (
    <div
      class="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onKeep()
      }}
    >
      <p>{question}</p>
      <div class="row-actions">
        <button type="button" class="danger" onClick={onYes}>
          {yes}
        </button>
        <button ref={keep} type="button" class="quiet" onClick={onKeep}>
          Keep
        </button>
      </div>
    </div>
  )
}

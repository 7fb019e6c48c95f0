import { useState } from 'preact/hooks'
import { messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { useFocusOnShow } from '../../focus.ts'
import { writeWaiverText, type WaiverText } from './waiver-api.ts'

/**
 * An admin writes the waiver text: saving makes a new version, which the screen shows from then
 * on; waivers already signed keep theirs.
 */
export function WaiverTextEditor({
  current,
  onSaved,
  onCancel,
}: {
  current: WaiverText | null
  onSaved: () => void
  onCancel: () => void
}) {
  const [text, setText] = useState(current?.text ?? '')
  const [days, setDays] = useState(current?.valid_for_days == null ? '' : String(current.valid_for_days))
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const field = useFocusOnShow<HTMLTextAreaElement>()

  const save = async (event: Event) => {
    event.preventDefault()
    setSaving(true)
    setError(null)
    try {
      await writeWaiverText(text, days.trim() === '' ? null : Number(days))
      onSaved()
    } catch (e) {
      setError(messageOf(e))
      setSaving(false)
    }
  }

  return (
    <form class="waiver-editor" onSubmit={save} aria-label="Change the waiver text">
      <h2>{current ? `Change the waiver text (now version ${current.version})` : 'Write the waiver text'}</h2>
      <label>
        Waiver text (a blank line starts a new paragraph)
        <textarea
          ref={field}
          name="text"
          rows={14}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </label>
      <label>
        A signed waiver lasts this many days (empty: it never expires)
        <input
          name="valid_for_days"
          inputMode="numeric"
          value={days}
          onInput={(e) => setDays(e.currentTarget.value)}
        />
      </label>
      <p class="muted">
        Saving makes a new version. Waivers already signed keep the version they were signed on.
      </p>
      <ErrorLine message={error} />
      <div class="actions">
        <button type="submit" disabled={saving || text.trim() === ''}>
          Save as a new version
        </button>
        <button type="button" class="quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

import { useState } from 'preact/hooks'
import { useFocusOnShow } from '../../focus.ts'
import type { Gym } from '../../types.ts'

/** Which gym this desk stands in: asked once, then remembered by the browser. */
export function GymPicker({
  gyms,
  current,
  onChoose,
  onCancel,
}: {
  gyms: Gym[]
  current: number
  onChoose: (id: number) => void
  onCancel?: () => void
}) {
  const select = useFocusOnShow<HTMLSelectElement>()
  const [chosen, setChosen] = useState(gyms.some((g) => g.id === current) ? current : gyms[0]?.id)
  return (
    <main class="centered">
      <form
        class="gym-picker"
        onSubmit={(event) => {
          event.preventDefault()
          if (chosen !== undefined) onChoose(chosen)
        }}
      >
        <h1>Which gym is this desk in?</h1>
        <label for="desk-gym">Gym</label>
        <select
          id="desk-gym"
          name="gym"
          ref={select}
          value={chosen}
          onChange={(e) => setChosen(Number(e.currentTarget.value))}
        >
          {gyms.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
        <div class="actions">
          <button type="submit">Use this gym</button>
          {onCancel && (
            <button type="button" class="quiet" onClick={onCancel}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </main>
  )
}

import { useState } from 'preact/hooks'
import { ApiError, messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'

/** Which action answered last, and what: shown under that action's form. */
export interface Outcome {
  action: 'free-entry' | 'guest' | 'waiver' | 'alerts'
  text: string
  refused: boolean
}

export function OutcomeLine({ outcome, action }: { outcome: Outcome | null; action: Outcome['action'] }) {
  if (outcome === null || outcome.action !== action) return null
  return outcome.refused ? (
    <ErrorLine message={outcome.text} />
  ) : (
    <p class="done" role="status">
      {outcome.text}
    </p>
  )
}

/** What an action on the customer's page sends, and what it says when done. */
export type Act = (
  action: Outcome['action'],
  request: () => Promise<unknown>,
  done: string | (() => string),
) => Promise<boolean>

/**
 * The customer page's actions: each sends one request; the last to answer says it is done (the page
 * read again) or shows the API's refusal, under its own form.
 */
export function useCustomerAction(reload: () => Promise<void>): { outcome: Outcome | null; act: Act } {
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const act: Act = async (action, request, done) => {
    try {
      await request()
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401))
        setOutcome({ action, text: messageOf(e), refused: true })
      return false
    }
    setOutcome({ action, text: typeof done === 'string' ? done : done(), refused: false })
    await reload()
    return true
  }
  return { outcome, act }
}

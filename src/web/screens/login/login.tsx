import { useState } from 'preact/hooks'
import { api, messageOf } from '../../api.ts'
import { useFocusOnShow } from '../../focus.ts'
import { ErrorLine } from '../../components/error-line.tsx'

/** Staff email and password for a session; the message says why a login was refused. */
export function Login({ notice, onLoggedIn }: { notice: string | null; onLoggedIn: () => void }) {
  const emailBox = useFocusOnShow<HTMLInputElement>()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      // The box answers with its cookies: the session's key (which no script can read) and the
      // CSRF token.
      await api('POST', '/api/login/', { username: email, password })
      onLoggedIn()
    } catch (e) {
      setError(messageOf(e))
      setBusy(false)
    }
  }

  return (
    <main class="centered">
      <form class="login" onSubmit={submit}>
        <h1>Front desk</h1>
        {notice && <p class="notice">{notice}</p>}
        <label>
          Email
          <input
            type="email"
            name="email"
            autocomplete="username"
            required
            ref={emailBox}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <ErrorLine message={error} />
        <button type="submit" disabled={busy}>
          Log in
        </button>
      </form>
    </main>
  )
}

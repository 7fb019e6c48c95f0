import { useState } from 'preact/hooks'
import { api, messageOf } from '../../api.ts'
import { ErrorLine } from '../../components/error-line.tsx'
import { LoginFields } from '../../components/login-fields.tsx'

/** Staff email and password for a session; the message says why a login was refused. */
export function Login({ notice, onLoggedIn }: { notice: string | null; onLoggedIn: () => void }) {
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
        <LoginFields email={email} password={password} onEmail={setEmail} onPassword={setPassword} />
        <ErrorLine message={error} />
        <button type="submit" disabled={busy}>
          Log in
        </button>
      </form>
    </main>
  )
}

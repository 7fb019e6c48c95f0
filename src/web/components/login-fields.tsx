import { useFocusOnShow } from '../focus.ts'

/**
 * A staff member's email and password, as the desk's login and the kiosk's staff login both ask
 * them: the email takes the focus when shown, and the browser may fill both in.
 */
export function LoginFields(props: {
  email: string
  password: string
  onEmail(email: string): void
  onPassword(password: string): void
}) {
  const emailBox = useFocusOnShow<HTMLInputElement>()
  return (
    <>
      <label>
        Email
        <input
          type="email"
          name="email"
          autocomplete="username"
          required
          ref={emailBox}
          value={props.email}
          onInput={(e) => props.onEmail(e.currentTarget.value)}
        />
      </label>
      <label>
        Password
        <input
          type="password"
          name="password"
          autocomplete="current-password"
          required
          value={props.password}
          onInput={(e) => props.onPassword(e.currentTarget.value)}
        />
      </label>
    </>
  )
}

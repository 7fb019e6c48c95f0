import { Type } from '@sinclair/typebox'
import { field } from '../../http/fields.ts'

/** What both logins take: get-token's and the browser's (POST /api/login/). */
export const Credentials = Type.Object({
  username: field.text({ description: "The staff user's email (any case)" }),
  password: field.secret(),
})

/** When a login of either kind is refused: the same throttles, gate and answers. */
export const LOG_IN_REFUSALS: string[][] = [
  [
    'Wrong credentials or an inactive user are',
    '`400 {"non_field_errors": ["Unable to log in with provided credentials."]}`, and so is a login',
    'whose password check was under way when the password changed or the user was deactivated. A',
    'login for an unknown email takes as long as one with a wrong password, so answers do not reveal',
    'which emails exist.',
  ],
  [
    'A login costs a password verification (argon2id: a tenth of a second or more of a core, and',
    '64 MiB), so one verification runs at a time and four more wait; a login past that is `429`',
    'with `Retry-After: 1`. Failed logins are throttled twice, each `429` with `Retry-After` for the',
    'rest of its window: 10 failures for one username (any case) within 15 minutes, and 20 from one',
    'client address (whatever the usernames) within 15 minutes. Both are kept in memory: a restart',
    'forgets them; an organization admin lets a username back in at once with',
    '`POST /api/users/{id}/unlock/`. Every refused login (past the queue or throttled) is answered',
    'after a pause of one second, so a client that retries as soon as it is answered costs the',
    'server next to nothing.',
  ],
  [
    "A login from another site's page is refused with 403 before the password is checked or the",
    'throttles count it, so a web page open at the desk cannot lock anyone out: a browser request',
    "with `Sec-Fetch-Site: cross-site`, or with an `Origin` that is not the box's own (`null`",
    "included). The box's own origin is the configured public URL, or the host the request was sent",
    "to (over http or https). `Sec-Fetch-Site: same-site` passes only with the box's own `Origin`.",
    'Clients that send neither header (curl, integrations) log in as before.',
  ],
]

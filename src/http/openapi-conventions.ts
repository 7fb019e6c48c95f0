import { BODY_READ_LIMIT_BYTES, MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_UPLOAD_BYTES } from './body.ts'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './pagination.ts'
import { MAX_PATH_SEGMENTS } from './raw-path.ts'
import { MAX_HEADER_BYTES, MAX_URL_BYTES, SERVER_HEADER_READ_LIMIT_BYTES } from './request-limits.ts'

/**
 * The rules every collection shares, written once at the top of the OpenAPI document (its
 * `info.description`): the docs page at /swagger opens with them. Each operation's and schema's own
 * rules are written beside its routes; this holds only what is true of all of them.
 */

const kib = (bytes: number) => `${bytes / 1024} KiB`
const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`

/** One Markdown section: a heading and its paragraphs, each paragraph written as lines. */
const section = (heading: string, ...paragraphs: string[][]) =>
  [`## ${heading}`, ...paragraphs.map((lines) => lines.join('\n'))].join('\n\n')

/** The short line the docs page gives search engines and link previews. */
export const API_SUMMARY =
  'The climbing-gym appliance API: Django REST Framework conventions (token and session authentication, DRF error bodies, paginated lists).'

export const API_CONVENTIONS = [
  [
    "The climbing-gym appliance's API. It follows Django REST Framework's conventions, so a client",
    "written for a DRF API feels at home: DRF's token authentication, its error bodies and its",
    'paginated lists. Each operation below opens with who may call it, then its own rules; each',
    "schema's fields carry their constraints. This section holds what every collection shares.",
  ].join('\n'),
  section(
    'Authentication',
    [
      "`POST /api/get-token/` with a staff user's email (`username`) and `password` answers",
      '`{"token": "<40 hex characters>"}`. Send it on every other request as',
      '`Authorization: Token <key>` (the word `Token` in any case). A token never expires unless the',
      'box runs with `--token-lifetime-hours`. A door controller signs in as a staff user too (one of',
      'its own, with no permission flags, is enough).',
    ],
    [
      'Two methods, as DRF: token and session. A browser (the front desk page) logs in with',
      '`POST /api/login/` instead and is answered with two cookies: `sessionid` (HttpOnly: its',
      'scripts cannot read it) and `csrftoken`. The session authenticates every request that carries',
      "no `Authorization: Token` header (a request with both is the token's), and every unsafe",
      'request on it (POST, PUT, PATCH, DELETE) must send the `csrftoken` value in `X-CSRFToken`, else',
      '`403 {"detail": "CSRF Failed: CSRF token missing."}` (or `… incorrect.`). A session ends at',
      'logout, after `--session-idle-hours` without a request (default 12), `--session-max-age-hours`',
      "after its login (default 168), and with the user's tokens (a new password, deactivation,",
      '`revoke-tokens`); its requests are then 401 `Authentication credentials were not provided.`.',
    ],
    [
      'PIN mode: an unsafe request may name the staff member acting in `X-Staff-Email` and',
      '`X-Staff-PIN`; it then runs, and is recorded, as them. A session of a user with',
      "`pin_mode_required` must name one on every unsafe request but the door's scans and logout",
      '(see `POST /api/login/`); `GET /api/users/pin-holders/` lists who can act.',
    ],
    [
      'A change made through the API (deactivating a user, changing their permissions, revoking',
      'tokens) applies from the very next request; one made to the database by another process',
      '(`belay create-admin`, the `sqlite3` shell) applies within 5 seconds.',
    ],
  ),
  section(
    'Permissions',
    [
      '- **Any staff user**: any active staff user with a token.',
      '- **`can_manage_members`**, **`can_manage_events`**, **`can_access_reports`**,',
      '  **`can_manage_climbs`** (grades, sections and climbs; not in the reference, default false): a',
      '  staff user with that permission flag.',
      '- **Organization admins** (`is_organization_admin`) pass every check.',
    ],
    [
      'A collection is usually read by any staff user and written (POST, PUT, PATCH, DELETE) by those',
      'with its permission: each operation says which. The flag `can_export_customers` is asked only',
      "by the customers' export (`GET /api/customers/?format=csv`).",
    ],
  ),
  section('Order of checks', [
    'As in DRF: authentication (401), then permission (403), then the body (400, 413, 415). A method',
    'the path does not offer is 405, but only after authentication. An id that matches no record,',
    "or a record under another parent (another customer's credit), is 404.",
  ]),
  section(
    'Errors',
    [
      'Invalid input is 400 with each failing field and its messages, `{"<field>": ["<message>", …]}`,',
      'object-level ones under `non_field_errors`. Every failing field is named at once, in the',
      "body's field order: type and format errors together with the checks that need the database (a",
      'unique email, an id that must exist, "cannot be changed"). Every other refusal is',
      '`{"detail": "<message>"}`:',
    ],
    [
      '| Case | Status | `detail` |',
      '| --- | --- | --- |',
      '| No or malformed `Authorization` header, and no live session | 401, with `WWW-Authenticate: Token` | `Authentication credentials were not provided.` |',
      '| Unknown, revoked or expired token, or an inactive user | 401, with `WWW-Authenticate: Token` | `Invalid token.` |',
      '| Lacks the permission | 403 | `You do not have permission to perform this action.` |',
      '| An unsafe request on a session without its CSRF token (or with another) | 403 | `CSRF Failed: CSRF token missing.` (`… incorrect.`) |',
      "| No such record, or another parent's record | 404 | `Not found.` |",
      '| A page past the end | 404 | `Invalid page.` |',
      '| A method the path does not offer | 405 | `Method "PUT" not allowed.` |',
      '| A body that is not JSON (nor another type the operation takes) | 415 | `Unsupported media type "text/plain" in request.` |',
      '| Throttled | 429, with `Retry-After` | `Request was throttled. Expected available in N seconds.` |',
      '| Anything unexpected (the cause goes to the log only) | 500 | `A server error occurred.` |',
      '| A write the disk would not take (full, or failing) | 503, with `Retry-After` | what happened, and whether it was saved |',
    ],
    [
      'Messages are worded as DRF words them: `This field is required.`, `This field may not be',
      'blank.`, `This field may not be null.`, `A valid integer is required.`, `"<value>" is not a',
      'valid choice.`, `Invalid pk "<n>" - object does not exist.`, and so on. The door operations',
      'keep their own bodies, as each says.',
    ],
  ),
  section(
    'Lists',
    [
      'A list answers `{"count": …, "next": …, "previous": …, "results": […]}`, where `next` and',
      '`previous` are absolute URLs (keeping the other query parameters) or `null`. `page` counts',
      'from 1; `page=last` is accepted and an empty `page=` is page 1, as in DRF; any other',
      'non-numeric page, or one past the end, is 404 `Invalid page.` (page 1 of an empty list is an',
      `empty list). \`page_size\` is ${DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE} (more gives`,
      `${MAX_PAGE_SIZE}; a bad or non-positive one gives ${DEFAULT_PAGE_SIZE}).`,
    ],
    ['Every list has a stable order: its own (each list says it where it matters), then `id`.'],
    [
      'Filters: unknown query parameters are ignored. A text filter matches a case-insensitive part of',
      'the text unless its description says exact; an id filter is exact, and a bad value is',
      '`{"<param>": ["Enter a number."]}`; a boolean filter takes `true`/`false` in any case and',
      '`1`/`0` (django-filter\'s), else `{"<param>": ["Must be a valid boolean."]}`. A NUL in any',
      'filter\'s value is `{"<param>": ["Null characters are not allowed."]}`, and a value whose',
      'percent escapes are not UTF-8 (`search=%ff`) is `{"<param>": ["Enter a valid value."]}`',
      '(`%25ff` is the text `%ff`; a `%` not followed by two hex digits is itself).',
    ],
  ),
  section('Values', [
    "- **URLs**: `url` and `*_url` fields are absolute: the request's own scheme and host, or the",
    "  box's `--public-url`.",
    '- **Datetimes** are UTC in ISO 8601 with a `Z` (`2026-11-22T15:04:05.123Z`), except where a',
    "  field says it is a gym's wall-clock time (a check-in's). **Dates** are `YYYY-MM-DD`.",
    "- **Time zones**: \"today\", a date's start and a day's end are the organization's",
    "  (`time_zone` on `/api/organization/`) unless a field or filter names another zone (a gym's,",
    "  a customer's home gym's).",
    '- **Money** (prices, amounts, fees) reads as a decimal string with 2 places (`"12.50"`) unless its',
    "  schema says number (a credit's amounts, a payment's); a write takes a decimal string or a",
    '  number, at most 2 decimal places, never negative unless a field says so.',
    '- **Coercion** is DRF\'s: `"5"` for an integer; a boolean takes `true`/`false`,',
    '  `"true"`/`"True"`/`"TRUE"`, `"yes"`, `"y"`, `"on"`, `"t"`, `"1"`, `1` and their false twins',
    '  (`"no"`, `"off"`, …, `0`), in the cases DRF lists (`"oFF"` is refused). A list field given a',
    '  single value is refused (`Expected a list of items but got type "int".`).',
    '- **Read-only fields** sent in a write are ignored.',
    '- **PUT** needs every field required on create (including ones that cannot change, sent',
    '  unchanged); **PATCH** changes only the fields sent.',
    '- **Removal**: most records are never deleted (DELETE is 405): they are retired with',
    '  `is_active: false` or a status, as each schema says, since other records name them.',
  ]),
  section('OPTIONS', [
    "Every `/api/` path answers `OPTIONS` as DRF's SimpleMetadata does, from the same schemas as this",
    'document: `{"name": …, "description": …, "renders": […], "parses": […], "actions": {"POST":',
    '{"<field>": {…}, …}}}`, with `Allow` listing the methods the path offers. `name` is',
    '`<Item> List` on a collection, `<Item> Instance` on a record, else the last fixed segment of the',
    "path in words (`Freeze`); `description` is its GET's description (else its first write's);",
    '`parses` the media types its bodies may come in. `actions` holds `POST` and `PUT` where the path',
    'offers them and the user may make them: left out when there is none, and `PUT` when the record',
    'does not exist. Each field has `type`, `required`, `read_only`, `label`, and where they apply',
    '`help_text`, `min_length`, `max_length`, `min_value`, `max_value`, `child`, `children` and',
    "`choices`: the fields of the write's answer, each writable one as its request schema describes",
    'it and the others `read_only`, then those only the request has. Authentication comes first, as',
    'for any method (401); the public paths need none.',
  ]),
  section('Browsable API', [
    'As in DRF, every `GET` (and `HEAD`) on an `/api/` path may also be answered as an HTML page, for',
    'a person in a browser: when `Accept` prefers `text/html` to `application/json` (by q-value, then',
    'by the order listed), or with `?format=api`. The page answers with the same status and headers',
    'the JSON would have (`Content-Type: text/html; charset=utf-8`, `Vary: Accept`) and shows that',
    "JSON, its links followable, with the operation's description, a filter form and, for what the",
    'user may change, a JSON editor; it logs in with the session (`POST /api/login/`). `?format=json`',
    'is always JSON, and so is every request whose `Accept` does not name `text/html` (`*/*`,',
    '`application/json`, none): clients get JSON as documented here. `GET /api/` lists every',
    'collection.',
  ]),
  section('Paths', [
    'Every path ends with a slash; the same path without it is served identically (no redirect).',
    "Only digits name a record, as DRF's `\\d+` URL patterns do: any other spelling",
    `(\`/api/gyms/abc/\`, \`0x0A\`, \`1e1\`, \`+1\`, \`1.0\`, \`%201\`) is 404, and so are digits past ${Number.MAX_SAFE_INTEGER}.`,
    'A path with a dot segment (`.`, `..`, also spelled `%2e`), an encoded slash (`%2f`), a',
    `backslash, an empty segment or more than ${MAX_PATH_SEGMENTS} segments is 404 too: it is never resolved into`,
    'another path.',
  ]),
  section(
    'Bodies and hostile input',
    [
      `Bodies are JSON (415 otherwise) unless an operation takes another type (get-token a form, a`,
      `document a multipart upload of up to ${mib(MAX_UPLOAD_BYTES)}). An empty body reads as \`{}\`, so`,
      `required fields are reported one by one. A body over ${mib(MAX_BODY_BYTES)} is`,
      '`413 {"detail": "Request body is too large."}`; over',
      `${mib(BODY_READ_LIMIT_BYTES)} the server cuts the connection with a bare 413 before reading it.`,
    ],
    [
      `- Objects and lists nested more than ${MAX_JSON_DEPTH} deep are`,
      `  \`400 {"detail": "JSON parse error - Objects and lists nest deeper than ${MAX_JSON_DEPTH} levels."}\`.`,
      '- A JSON body that is not valid UTF-8 is',
      '  `400 {"detail": "JSON parse error - The body is not valid UTF-8."}`, never stored as U+FFFD.',
      '- A NUL in a text field is `Null characters are not allowed.` on that field, and half a',
      '  surrogate pair escaped alone in a JSON string (`"\\ud800"`) is',
      '  `Surrogate characters are not allowed: U+D800.` on the field holding it.',
      `- A URL (path and query) over ${kib(MAX_URL_BYTES)} is \`414 {"detail": "Request URL is too long."}\`,`,
      `  and header fields adding up to over ${kib(MAX_HEADER_BYTES)} are`,
      '  `431 {"detail": "Request header fields are too large."}`, before authentication and routing;',
      `  past ${kib(SERVER_HEADER_READ_LIMIT_BYTES)} the server answers a bare 431 itself.`,
    ],
  ),
].join('\n\n')

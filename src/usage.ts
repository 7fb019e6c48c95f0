import pkg from '../package.json' with { type: 'json' }
import { settings } from './config.ts'
import { MIN_PASSWORD_LENGTH } from './core/auth/passwords.ts'
import { PROFILES } from './demo/index.ts'

/** What `belay --help` and `belay COMMAND --help` print. */

export const usage = `belay ${pkg.version}: the climbing-gym appliance

Usage:
  belay serve [options]                 migrate, create the organization on first start, serve the API
  belay migrate [up|status] [--db FILE] apply pending migrations, or list them
  belay create-admin --email EMAIL [--password PASSWORD] [--db FILE]
                                        add an organization admin (random password printed if omitted)
  belay seed-demo --size small|large [--seed N] [--db FILE]
                                        fill an empty database with a demo climbing-gym organization
                                        (small: ${PROFILES.small.customers} customers; large: ${PROFILES.large.customers.toLocaleString('en-US')}); the same seed
                                        (default 1) gives the same data
  belay backup [--to PATH] [--db FILE]  take a verified snapshot of the database, also while it is served
  belay restore PATH [--db FILE]        put a snapshot in place of the database (not while it is served)
  belay rollup rebuild [--db FILE]      roll the daily membership counts again for all history
  belay import --from URL --token TOKEN [--db FILE]
                                        copy an organization from a server that speaks this API
                                        (another Belay box, Capitan) into a new database, keeping ids

Options (each also an environment variable):
${settings.map(describeSetting).join('\n')}

belay COMMAND --help shows one command's usage.
`

function describeSetting(s: (typeof settings)[number]): string {
  return `  ${s.flag} (${s.env})\n      ${s.help}${s.default ? ` [${s.default}]` : ''}`
}

const dbOption = describeSetting(settings.find((s) => s.key === 'dbPath')!)
const backupDirOption = describeSetting(settings.find((s) => s.key === 'backupDir')!)

/** `belay COMMAND --help`: what each command takes, printed on stdout with exit 0. */
export const commandUsage: Record<string, string> = {
  serve: `Usage: belay serve [options]

Applies pending migrations, creates the organization, gym and admin on first start, and serves the
API until SIGTERM or SIGINT. One serve per database: a second one on a database in use exits.

Options (each also an environment variable):
${settings.map(describeSetting).join('\n')}
`,
  migrate: `Usage: belay migrate [up|status] [--db FILE]

  up        apply pending migrations (the default); refused while belay serve runs on the database
  status    list every migration, applied (with when) or pending

Before applying migrations to a database that has data, a snapshot of it is taken into the backup
folder, named belay-<time>-before-<migration>.sqlite3 (never removed by serve's schedule).

Options:
${dbOption}
${backupDirOption}
`,
  backup: `Usage: belay backup [--to PATH] [--db FILE]

Takes a snapshot of the database, also while belay serve runs on it (copied on a thread of its own
at the lowest CPU priority): the database as it was when the copy's read began, every transaction
in it whole. The copy is written under a temporary name, synced, checked (SQLite's integrity check,
its migrations against this belay's) and only then given its name. Progress goes to stderr, the
result to stdout.

Options:
  --to PATH
      a folder to put belay-<time>-manual.sqlite3 in, or the new file's name [the backup folder]
${dbOption}
${backupDirOption}
`,
  restore: `Usage: belay restore PATH [--db FILE]

Puts the snapshot PATH in place of the database, after checking it as backup does (a damaged copy,
or one migrated by a newer belay, is refused). Refused while belay serve runs on the database, and
no serve can start until it is done. The database it replaces is not deleted: it is moved aside,
whole, as FILE.replaced-<time>. A copy taken before a migration is migrated at the next start.

Options:
${dbOption}
`,
  rollup: `Usage: belay rollup rebuild [--db FILE]

Clears the daily membership rollup (what membership_count reads) and rolls all history again through
today, printing progress. Every day is rolled with today's billing locations, members and add-ons:
a day rolled before keeps no value of its own. Refused while belay serve runs on the database, which
keeps the rollup current by itself.

Options:
${dbOption}
`,
  import: `Usage: belay import --from URL --token TOKEN [--db FILE]

Copies an organization from a server that speaks this API (another Belay box, or Capitan) into a new
database FILE, keeping every id: the organization, gyms, staff, event types and their questions and
schedules, walls (grades, sections, climbs), what the gym sells, customers and every record under
them, memberships, passes, events, reservations, waitlists, sales (invoices, payments, refunds) and
check-ins. Progress goes to stderr, a table of records per collection to stdout at the end; a
collection the source does not offer (404) is reported, not fatal.

Staff users come without passwords: none can log in until an admin sets one (belay create-admin
makes the first admin). Stopped midway, the same command carries on where it stopped and writes
nothing twice. A database that holds anything else is refused, as is one served meanwhile.

Options:
  --from URL
      the source's address, such as https://gym.example.com (required)
  --token TOKEN
      an organization admin's API token at the source, from POST /api/get-token/ (required)
${dbOption}
`,
  'create-admin': `Usage: belay create-admin --email EMAIL [--password PASSWORD] [--db FILE]

Adds an organization admin; without --password a random one is made and printed once. On an empty
database it also creates the organization and gym. Safe while belay serve runs on the database.

Options:
  --email EMAIL
      the admin's email (required)
  --password PASSWORD
      at least ${MIN_PASSWORD_LENGTH} characters; default: random, printed once
${dbOption}
`,
  'seed-demo': `Usage: belay seed-demo --size small|large [--seed N] [--db FILE]

Fills an empty database with a demo climbing-gym organization (small: ${PROFILES.small.customers} customers; large:
${PROFILES.large.customers.toLocaleString('en-US')}). Refuses a database with customers, or one belay serve runs on.

Options:
  --size small|large
      how big a gym (required)
  --seed N
      the same seed gives the same data [1]
${dbOption}
`,
}

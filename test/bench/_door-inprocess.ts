/**
 * Where a check-in's time goes, without the network: a ladder of the pieces of an open-door request,
 * each timed in-process on the benchmark's temporary database (no server may be running on it),
 * one call after another. For each: the median wall-clock µs and the mean CPU µs of this process
 * per call (CPU is steadier than wall-clock on a shared machine, but misses the time a commit waits
 * for the disk). Every scan that writes is a member's first at a fresh location, so it is a new
 * check-in.
 */
import { createApp } from '../../src/app.ts'
import { authenticateToken } from '../../src/core/auth/authentication.ts'
import { checkInByBarcode } from '../../src/core/door/record.ts'
import { DEMO_ADMIN_EMAIL } from '../../src/demo/index.ts'
import * as door from '../../src/core/door/queries.ts'
import { getGym, getOnlyGymId } from '../../src/core/gyms/queries.ts'
import { DoorBody } from '../../src/api/door/schema.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { checkBody } from '../../src/http/validation.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { localDate } from '../../src/lib/local-time.ts'
import { depsFor } from '../helpers/app.ts'
import { makeToken } from '../helpers/factories.ts'

/** Check-ins queued together in the group-commit step. */
const GROUP = 16

export interface Step {
  label: string
  /** median wall-clock µs per call */
  wallUs: number
  /** mean CPU µs of this process per call */
  cpuUs: number
}

/** Runs `work(i)` for i in [0, n), after `warm` untimed calls on other inputs. */
async function step(
  label: string,
  n: number,
  work: (i: number) => unknown,
  warm?: (i: number) => unknown,
): Promise<Step> {
  for (let i = 0; i < Math.min(200, n); i++) await (warm ?? work)(i)
  const wall = new Float64Array(n)
  const cpu0 = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    await work(i)
    wall[i] = (performance.now() - t0) * 1000
  }
  const cpu = process.cpuUsage(cpu0)
  wall.sort()
  return { label, wallUs: wall[Math.floor(n / 2)]!, cpuUs: (cpu.user + cpu.system) / n }
}

/**
 * The ladder, on `file`: `valid` are barcodes of members with an entry method now (at least `n`,
 * distinct), `unknown` barcodes nobody has.
 */
export async function measureInProcess(
  file: string,
  valid: readonly string[],
  unknown: readonly string[],
  n: number,
): Promise<Step[]> {
  const connection = openDatabase(file)
  const { db, sqlite } = connection
  try {
    const newGym = () =>
      (
        sqlite
          .query(
            `INSERT INTO gyms (name, time_zone, combine_same_day_check_ins, created_at, updated_at)
             SELECT name || ' (in-process bench)', time_zone, combine_same_day_check_ins, created_at, updated_at
             FROM gyms WHERE id = (SELECT MIN(id) FROM gyms) RETURNING id`,
          )
          .get() as { id: number }
      ).id
    const user = await db
      .selectFrom('staff_users')
      .selectAll()
      .where('email', '=', DEMO_ADMIN_EMAIL)
      .executeTakeFirstOrThrow()
    const deps = depsFor({ db, sqlite }, systemClock, { version: 'bench' })
    const app = createApp(deps)
    const token = await makeToken(db, user)
    const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' }
    const openDoor = async (barcode: string, gymId: number) => {
      const response = await app.handle(
        new Request(`http://localhost/api/gym-endpoints/open-door-check-in/${barcode}/`, {
          method: 'POST',
          headers,
          body: `{"location_id":${gymId}}`,
        }),
      )
      await response.arrayBuffer()
    }
    const customers = valid.slice(0, n).map((barcode) => door.getCustomerByBarcode(sqlite, barcode)!)
    const gym1 = getGym(sqlite, 1)!
    const now = new Date()
    const today = localDate(now, gym1.time_zone)
    const steps: Step[] = []
    const warmGym = newGym()
    const warmScan = (i: number) =>
      checkInByBarcode(deps, { barcode: valid[n + i] ?? valid[i]!, locationId: warmGym, user })

    steps.push(
      await step('app.handle GET /healthz (no token)', n, async () => {
        const response = await app.handle(new Request('http://localhost/healthz'))
        await response.arrayBuffer()
      }),
    )
    steps.push(await step('token check (authenticateToken, cached)', n, () => authenticateToken(deps, token)))
    steps.push(
      await step('body check (checkBody DoorBody)', n, () => checkBody(DoorBody, { location_id: 2 }).valid()),
    )
    steps.push(await step('localDate, one call', n, () => localDate(now, gym1.time_zone)))
    steps.push(
      await step('the decision reads (the statements gatherFacts runs)', n, (i) => {
        const c = customers[i]!
        getOnlyGymId(sqlite)
        getGym(sqlite, 1)
        door.getCustomerByBarcode(sqlite, valid[i]!)
        door.getDoorOrganization(sqlite)
        door.listActiveAlerts(sqlite, c.id)
        door.hasValidWaiver(sqlite, c.id, today)
        door.listRecentCheckIns(sqlite, c.id, 1, new Date(now.getTime() - 2 * 86_400_000).toISOString())
        door.listReservationsNow(sqlite, c.id, 1, now.toISOString())
        door.listCoveringMemberships(sqlite, c.id)
        door.listUsableEntryPasses(sqlite, c.id, today)
      }),
    )
    for (const synchronous of ['NORMAL', 'FULL'] as const) {
      sqlite.run(`PRAGMA synchronous = ${synchronous}`)
      const unknownGym = newGym()
      steps.push(
        await step(`${synchronous}: app.handle open-door, unknown barcode`, n, (i) =>
          openDoor(unknown[i % unknown.length]!, unknownGym),
        ),
      )
      const txGym = newGym()
      steps.push(
        await step(
          `${synchronous}: check-in transaction alone (checkInByBarcode)`,
          n,
          (i) => checkInByBarcode(deps, { barcode: valid[i]!, locationId: txGym, user }),
          warmScan,
        ),
      )
      const handleGym = newGym()
      steps.push(
        await step(
          `${synchronous}: app.handle open-door, new check-in`,
          n,
          (i) => openDoor(valid[i]!, handleGym),
          warmScan,
        ),
      )
    }
    // Group commit: GROUP scans queued in one turn share one transaction and one fsync (each
    // answered after that COMMIT), as under load; per check-in.
    for (const synchronous of ['FULL'] as const) {
      sqlite.run(`PRAGMA synchronous = ${synchronous}`)
      const groupGym = newGym()
      const group = await step(
        `${synchronous}: ${GROUP} concurrent check-ins, one group commit (per check-in)`,
        Math.floor(n / GROUP),
        (k) =>
          Promise.all(
            Array.from({ length: GROUP }, (_, j) =>
              checkInByBarcode(deps, { barcode: valid[k * GROUP + j]!, locationId: groupGym, user }),
            ),
          ),
        warmScan,
      )
      steps.push({ ...group, wallUs: group.wallUs / GROUP, cpuUs: group.cpuUs / GROUP })
    }
    return steps
  } finally {
    await connection.close()
  }
}

/**
 * `belay import` benchmark: the `small` demo copied from another box, over HTTP on loopback, by the
 * BUILT executable (issue 29: "belay import of the small demo from another box (seconds)").
 *
 *   npx bun run test/bench/org-import.ts [--runs 3]     (or `npm run bench -- org-import`)
 *
 * Builds build/out/belay if it is older than the sources, seeds `belay seed-demo --size small` into
 * a temporary file (os.tmpdir()), serves it as the source, logs in as the demo admin, then runs
 * `belay import --from SOURCE --token TOKEN --db NEW` --runs times, each into a new file. Reported
 * per run: wall-clock seconds (from starting the command to its exit), records copied (the closing
 * table's sum) and records per second, the importer's CPU seconds (user + system) and the source
 * server's CPU over the run (from /proc), and the host's load average beside them. Fails if an
 * import exits other than 0 or copies a different number of records than the first.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '../../src/demo/index.ts'
import { numberArg } from './_args.ts'
import { BELAY, buildIfNeeded, processCpuMs, seedDemo, startServing } from './_door-setup.ts'
import { formatTable, machineLine } from './_table.ts'

const RUNS = numberArg('--runs', 3)

console.log(`build: ${buildIfNeeded()}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-import-'))
try {
  const sourceDb = join(dir, 'source.sqlite3')
  seedDemo(sourceDb, 'small', 1, dir)
  const source = await startServing(
    [BELAY, 'serve', '--host', '127.0.0.1', '--port', '0', '--db', sourceDb],
    dir,
  )
  try {
    const login = await fetch(`${source.base}/api/get-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD }),
    })
    const { token } = (await login.json()) as { token: string }

    const rows: string[][] = [['run', 'seconds', 'records', 'records/s', 'import CPU s', 'source CPU s']]
    let expected: number | undefined
    for (let run = 1; run <= RUNS; run++) {
      const target = join(dir, `copy-${run}.sqlite3`)
      const sourceCpuBefore = processCpuMs(source.pid)
      const started = performance.now()
      const proc = Bun.spawn([BELAY, 'import', '--from', source.base, '--token', token, '--db', target], {
        cwd: dir,
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const [stdout, stderr, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ])
      const seconds = (performance.now() - started) / 1000
      if (code !== 0) throw new Error(`belay import exited ${code}:\n${stderr}`)
      const records = Number(/: ([\d,]+) records/.exec(stdout)![1]!.replaceAll(',', ''))
      expected ??= records
      if (records !== expected) throw new Error(`run ${run} copied ${records} records, the first ${expected}`)
      const usage = proc.resourceUsage()!
      const importCpu = Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6
      const sourceCpu = (processCpuMs(source.pid) - sourceCpuBefore) / 1000
      rows.push([
        String(run),
        seconds.toFixed(1),
        records.toLocaleString('en-US'),
        Math.round(records / seconds).toLocaleString('en-US'),
        importCpu.toFixed(1),
        sourceCpu.toFixed(1),
      ])
      rmSync(target, { force: true })
    }
    console.log(`belay import of the small demo from another box on loopback, ${RUNS} runs`)
    console.log(formatTable(rows, { rule: true }))
    console.log(machineLine())
  } finally {
    await source.stop()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

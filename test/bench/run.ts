/**
 * `npm run bench`: runs every benchmark in test/bench/ (each `*.ts` file except this one and helpers
 * named `_*.ts`, and the tools in TOOLS), one after another, each in its own Bun process so that none warms up or loads the
 * next. Arguments filter by file name: `npm run bench -- sqlite` runs only files whose name contains
 * "sqlite". Exits non-zero if any benchmark did.
 *
 * First it checks the statistics the comparisons report (`_paired.check.ts`, a bun test file that
 * `npm test` does not collect: its name does not end in `.test.ts`), so that no run reports a
 * paired summary from a broken helper.
 */
import { readdirSync } from 'node:fs'
import { basename, join } from 'node:path'

const self = basename(import.meta.path)
/** Tools beside the benchmarks that measure nothing and take arguments of their own. */
const TOOLS = new Set(['same-answers.ts'])
const filters = process.argv.slice(2)
const files = readdirSync(import.meta.dir)
  .filter(
    (name) =>
      name.endsWith('.ts') &&
      !name.endsWith('.d.ts') &&
      name !== self &&
      !name.startsWith('_') &&
      !TOOLS.has(name),
  )
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort()

if (files.length === 0) {
  console.error(
    `no benchmark in ${import.meta.dir}${filters.length ? ` matching ${filters.join(', ')}` : ''}`,
  )
  process.exit(1)
}

const statistics = Bun.spawnSync([process.execPath, 'test', join(import.meta.dir, '_paired.check.ts')], {
  stdin: 'ignore',
  stdout: 'inherit',
  stderr: 'inherit',
})
if (statistics.exitCode !== 0) {
  console.error('the paired statistics (_paired.check.ts) fail their check: no benchmark ran')
  process.exit(1)
}

const failed: string[] = []
for (const name of files) {
  console.log(`\n=== ${name} ===\n`)
  const child = Bun.spawn([process.execPath, 'run', join(import.meta.dir, name)], {
    stdin: 'ignore',
    stdout: 'inherit',
    stderr: 'inherit',
  })
  const code = await child.exited
  if (code !== 0) {
    console.error(`\n${name} exited with ${code}`)
    failed.push(name)
  }
}
const summary = `${files.length - failed.length} of ${files.length} benchmarks ran`
console.log(`\n${summary}${failed.length ? `; failed: ${failed.join(', ')}` : ''}`)
process.exit(failed.length ? 1 : 0)

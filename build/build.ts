/**
 * Builds the single executable build/out/belay: the runtime, the app, its migrations, the Swagger UI
 * assets, the front desk's page and full ICU (time zones) in one file that runs from any directory
 * with nothing beside it. The page is bundled while the app is (src/api/desk/page-bundle.ts).
 * Usage: bun run build/build.ts [--target bun-linux-arm64]
 */
import { join } from 'node:path'

const root = join(import.meta.dir, '..')
const outfile = join(root, 'build/out/belay')
const targetIndex = process.argv.indexOf('--target')
const target = targetIndex > 0 ? process.argv[targetIndex + 1] : undefined

const started = performance.now()
const proc = Bun.spawnSync(
  [
    process.execPath,
    'build',
    '--compile',
    '--minify',
    '--bytecode',
    '--format=esm',
    // The server reads request heads up to this size before answering a bare 431, so that an
    // over-long URL or header reaches the app and gets its JSON 414/431 (src/http/request-limits.ts).
    '--compile-exec-argv=--max-http-header-size=65536',
    '--define',
    'process.env.NODE_ENV="production"',
    ...(target ? [`--target=${target}`] : []),
    '--root',
    join(root, 'src'),
    join(root, 'src/main.ts'),
    // Worker threads are entrypoints of their own (Bun's docs: "Worker" in executables), embedded
    // at their path under --root; src/worker-urls.ts finds them there.
    join(root, 'src/db/reader-worker.ts'),
    join(root, 'src/db/checkpoint-worker.ts'),
    join(root, 'src/db/snapshot-worker.ts'),
    join(root, 'src/demo/check-in-worker.ts'),
    '--outfile',
    outfile,
  ],
  { cwd: root, stdout: 'inherit', stderr: 'inherit' },
)
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1)
console.log(`built ${outfile} in ${((performance.now() - started) / 1000).toFixed(1)} s`)

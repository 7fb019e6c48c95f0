import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'

/** One file of the page: its name (the content's hash in it) and its text. */
export interface DeskAsset {
  name: string
  text: string
}

export interface DeskBundle {
  script: DeskAsset
  styles: DeskAsset
}

const ENTRY = join(import.meta.dir, '../../web/main.tsx')

/**
 * Bundles the front desk's browser code (src/web/, its styles imported by its entry) minified for
 * the browser. Imported as a macro (`with { type: 'macro' }`), so it runs when the server's code is
 * bundled: into the executable by `bun build --compile`, and when `bun run src/main.ts` loads it,
 * so both serve the same page with no file beside them. A macro may not call Bun.build itself (the
 * bundler would wait for itself), so it runs the bundler's command line.
 */
export function bundleDeskPage(): DeskBundle {
  const outdir = mkdtempSync(join(tmpdir(), 'belay-desk-'))
  try {
    const built = Bun.spawnSync(
      [
        process.execPath,
        'build',
        ENTRY,
        '--target=browser',
        '--minify',
        '--define',
        'process.env.NODE_ENV="production"',
        '--outdir',
        outdir,
      ],
      { stdout: 'pipe', stderr: 'pipe' },
    )
    if (built.exitCode !== 0) throw new Error(`bundling the front desk failed:\n${built.stderr.toString()}`)
    const files = readdirSync(outdir)
    const read = (extension: string): DeskAsset => {
      const file = files.find((name) => extname(name) === extension)
      if (file === undefined) throw new Error(`bundling the front desk gave no ${extension} file`)
      const text = readFileSync(join(outdir, file), 'utf8')
      return { name: `desk-${Bun.hash(text).toString(36)}${extension}`, text }
    }
    return { script: read('.js'), styles: read('.css') }
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}

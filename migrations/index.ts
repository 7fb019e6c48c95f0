import type { Migration } from './migration.ts'
import * as m0001 from './0001_foundation.ts'

/**
 * Every migration, by name, imported statically so the compiled executable carries them all.
 * A test fails when a NNNN_*.ts file in this folder is missing here.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
}

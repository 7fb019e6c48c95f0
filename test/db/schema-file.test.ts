import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { currentSchema, REGENERATE, SCHEMA_FILE } from '../../build/schema.ts'

test('migrations/schema.sql is the schema the migrations make', async () => {
  const committed = readFileSync(SCHEMA_FILE, 'utf8')
  const current = await currentSchema()
  if (committed !== current)
    throw new Error(`migrations/schema.sql is stale: a migration changed the schema. Run \`${REGENERATE}\``)
  expect(committed).toContain('CREATE TABLE check_ins (')
})

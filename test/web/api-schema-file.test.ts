import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { API_SCHEMA_FILE, currentApiSchema, REGENERATE } from '../../build/web-api-types.ts'

test('src/web/api-schema.ts is the types of the document the API serves', async () => {
  const committed = readFileSync(API_SCHEMA_FILE, 'utf8')
  const current = await currentApiSchema()
  if (committed !== current)
    throw new Error(`src/web/api-schema.ts is stale: the OpenAPI document changed. Run \`${REGENERATE}\``)
  expect(committed).toContain('Customer: {')
})

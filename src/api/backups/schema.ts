import { Type as t } from '@sinclair/typebox'

export const SnapshotOut = t.Object({
  name: t.String({ description: 'The file name, e.g. belay-20261124-065840Z.sqlite3' }),
  size_bytes: t.Integer({ minimum: 0 }),
  created_at: t.String({ format: 'date-time', description: 'When the copy was taken (UTC)' }),
  kind: t.Union([t.Literal('scheduled'), t.Literal('manual'), t.Literal('pre-migration')], {
    description: "serve's schedule, `belay backup`, or taken before applying a migration",
  }),
  directory: t.String({ description: 'The folder it is in, on the appliance' }),
})

import type { Static } from '@sinclair/typebox'
import type { Snapshot } from '../../core/backup/snapshots.ts'
import type { SnapshotOut } from './schema.ts'
import { dirname } from 'node:path'

export const serializeSnapshot = (snapshot: Snapshot): Static<typeof SnapshotOut> => ({
  name: snapshot.name,
  size_bytes: snapshot.sizeBytes,
  created_at: snapshot.createdAt.toISOString(),
  kind: snapshot.kind,
  directory: dirname(snapshot.path),
})

import { rename, rm } from 'node:fs/promises'
import type { ObjectInfo } from '@nats-io/obj'
import type { HubLink } from './hub-link.ts'

/**
 * Snapshots are objects in the organization's snapshots bucket, one per covered stream sequence.
 * The newest two are kept: a box still downloading the older one when a newer arrives must not
 * have its chunks deleted under it.
 */
const KEPT_SNAPSHOTS = 2
const COVERS = 'covers_stream_sequence'

export async function putSnapshot(link: HubLink, path: string, coversStreamSequence: number): Promise<void> {
  if (!Number.isSafeInteger(coversStreamSequence) || coversStreamSequence < 0)
    throw new RangeError(`invalid stream sequence ${coversStreamSequence}`)
  const { snapshots } = await link.resources()
  // Zero-padded, so names sort as the sequences they cover.
  const name = `snapshot-${String(coversStreamSequence).padStart(16, '0')}`
  await snapshots.put(
    { name, metadata: { [COVERS]: String(coversStreamSequence) } },
    Bun.file(path).stream(),
    { timeout: link.timeoutMs },
  )
  const stored = await storedSnapshots(link)
  for (const old of stored.slice(KEPT_SNAPSHOTS)) await snapshots.delete(old.info.name)
}

/**
 * Downloads the newest snapshot into `toPath`, through a file beside it renamed at the end, so a
 * download cut halfway never looks like a snapshot. The object store checks the digest.
 */
export async function newestSnapshot(
  link: HubLink,
  toPath: string,
): Promise<{ coversStreamSequence: number } | null> {
  const { snapshots } = await link.resources()
  const [newest] = await storedSnapshots(link)
  if (!newest) return null
  const result = await snapshots.get(newest.info.name)
  if (!result) return null
  const partPath = `${toPath}.part`
  const writer = Bun.file(partPath).writer()
  try {
    try {
      for await (const chunk of result.data) writer.write(chunk)
    } finally {
      await writer.end()
    }
    const error = await result.error
    if (error) throw error
    await rename(partPath, toPath)
  } catch (error) {
    await rm(partPath, { force: true })
    throw error
  }
  return { coversStreamSequence: newest.covers }
}

/** The bucket's snapshots, newest first. */
async function storedSnapshots(link: HubLink): Promise<Array<{ info: ObjectInfo; covers: number }>> {
  const { snapshots } = await link.resources()
  return (await snapshots.list())
    .filter((info) => !info.deleted && info.metadata?.[COVERS] !== undefined)
    .map((info) => ({ info, covers: Number(info.metadata![COVERS]) }))
    .sort((a, b) => b.covers - a.covers)
}

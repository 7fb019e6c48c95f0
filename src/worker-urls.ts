/**
 * Where the worker threads' entry files are. This module must stay in src/, beside main.ts: in the
 * compiled executable every module's `import.meta.url` is the executable's own (the root of its
 * embedded files, where main.ts was), and build/build.ts embeds each worker entrypoint under that
 * root at its path relative to src/. Resolved from here, the same relative path is right both from
 * source and from the executable, whatever the working directory.
 */
export const readerWorkerUrl = new URL('./db/reader-worker.ts', import.meta.url)
export const checkpointWorkerUrl = new URL('./db/checkpoint-worker.ts', import.meta.url)
export const snapshotWorkerUrl = new URL('./db/snapshot-worker.ts', import.meta.url)
export const demoCheckInWorkerUrl = new URL('./demo/check-in-worker.ts', import.meta.url)

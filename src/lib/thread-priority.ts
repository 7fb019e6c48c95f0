import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

/**
 * Lowers the scheduling priority of the calling thread alone to `niceness` (Linux: 0 is the
 * default, 19 the lowest), so that when it and the process's other threads want the same core, the
 * others get it first. Returns whether it was lowered.
 *
 * Linux keeps a nice value per thread, and setpriority on a thread id changes only that thread; the
 * id is read from /proc/thread-self (`PID/task/TID`). Where that cannot be read (another system, no
 * /proc) nothing is changed: there setpriority would lower the whole process, the threads this is
 * meant to favour too. A system that refuses the change also leaves the thread as it was.
 */
export function lowerThreadPriority(niceness: number, threadSelf = '/proc/thread-self'): boolean {
  let threadId: number
  try {
    threadId = Number(readlinkSync(threadSelf).split('/').pop())
  } catch {
    return false
  }
  if (!Number.isInteger(threadId) || threadId <= 0) return false
  try {
    setPriority(threadId, niceness)
    return true
  } catch {
    return false
  }
}

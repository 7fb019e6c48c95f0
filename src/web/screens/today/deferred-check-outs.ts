import { useEffect, useRef, useState } from 'preact/hooks'

/** How long a check-out waits for an Undo before it is sent. */
export const UNDO_MS = 5000

/**
 * Check-outs that wait UNDO_MS before they are sent, so a mistaken click (the wrong row on a
 * tablet) can be taken back: the API has no way to undo a check-out once recorded. Leaving the
 * screen sends the waiting ones at once: the desk meant them.
 */
export function useDeferredCheckOuts(send: (id: number) => Promise<void>) {
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>())
  const [waiting, setWaiting] = useState<ReadonlySet<number>>(new Set())
  const sendRef = useRef(send)
  sendRef.current = send

  const settle = (id: number) => {
    clearTimeout(timers.current.get(id))
    timers.current.delete(id)
    setWaiting((now) => new Set([...now].filter((other) => other !== id)))
  }

  const checkOut = (id: number) => {
    if (timers.current.has(id)) return
    timers.current.set(
      id,
      setTimeout(() => {
        settle(id)
        void sendRef.current(id)
      }, UNDO_MS),
    )
    setWaiting((now) => new Set([...now, id]))
  }

  const undo = (id: number) => settle(id)

  useEffect(
    () => () => {
      for (const [id, timer] of timers.current) {
        clearTimeout(timer)
        void sendRef.current(id)
      }
      timers.current.clear()
    },
    [],
  )

  return { waiting, checkOut, undo }
}

import { useEffect, useRef } from 'preact/hooks'

/**
 * A ref that takes the focus when its element first shows. The `autofocus` attribute works only
 * for what the page's own HTML holds on load; these screens are drawn afterwards.
 */
export function useFocusOnShow<T extends HTMLElement>() {
  const ref = useRef<T>(null)
  useEffect(() => ref.current?.focus(), [])
  return ref
}

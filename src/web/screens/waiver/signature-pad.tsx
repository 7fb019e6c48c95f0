import { useEffect, useRef } from 'preact/hooks'

/** Strokes shorter than this many CSS pixels in all are a tap, not a signature. */
const MIN_INK = 30

/**
 * A box to sign in with a finger, a pen or the mouse (pointer events, so touch and mouse alike),
 * with a Clear button. Tells `onChange` the signature as a PNG data URL once there is enough ink,
 * and null when cleared. A new `resetKey` clears it for the next person.
 */
export function SignaturePad({
  onChange,
  resetKey,
  error,
}: {
  onChange: (dataUrl: string | null) => void
  resetKey: number
  error?: string
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const last = useRef<{ x: number; y: number } | null>(null)
  const ink = useRef(0)

  const clear = () => {
    const c = canvas.current
    if (!c) return
    // Drawn at the screen's own pixel density, so the stroke is as sharp as the finger drew it.
    const ratio = window.devicePixelRatio || 1
    c.width = Math.round(c.clientWidth * ratio)
    c.height = Math.round(c.clientHeight * ratio)
    const g = c.getContext('2d')!
    g.scale(ratio, ratio)
    g.lineWidth = 2.5
    g.lineCap = 'round'
    g.lineJoin = 'round'
    g.strokeStyle = '#000000'
    g.fillStyle = '#000000'
    ink.current = 0
    onChange(null)
  }

  useEffect(clear, [resetKey])

  const point = (e: PointerEvent) => {
    const box = canvas.current!.getBoundingClientRect()
    return { x: e.clientX - box.left, y: e.clientY - box.top }
  }

  const down = (e: PointerEvent) => {
    e.preventDefault()
    canvas.current!.setPointerCapture(e.pointerId)
    const p = point(e)
    last.current = p
    const g = canvas.current!.getContext('2d')!
    g.beginPath()
    g.arc(p.x, p.y, 1.25, 0, 2 * Math.PI)
    g.fill()
  }

  const move = (e: PointerEvent) => {
    if (last.current === null) return
    const g = canvas.current!.getContext('2d')!
    const p = point(e)
    g.beginPath()
    g.moveTo(last.current.x, last.current.y)
    g.lineTo(p.x, p.y)
    g.stroke()
    ink.current += Math.hypot(p.x - last.current.x, p.y - last.current.y)
    last.current = p
  }

  const up = () => {
    if (last.current === null) return
    last.current = null
    if (ink.current >= MIN_INK) onChange(canvas.current!.toDataURL('image/png'))
  }

  return (
    <div class="signature">
      <div class="signature-head">
        <span id="signature-label">Signature</span>
        <button type="button" class="quiet" onClick={clear}>
          Clear
        </button>
      </div>
      <canvas
        ref={canvas}
        role="img"
        aria-labelledby="signature-label"
        aria-describedby="signature-hint"
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <p id="signature-hint" class={error ? 'error' : 'muted'}>
        {error ?? 'Sign in the box with a finger or the mouse.'}
      </p>
    </div>
  )
}

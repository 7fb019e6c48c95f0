import { useEffect, useRef, useState } from 'preact/hooks'
import './customer-photo.css'
import { ErrorLine } from './error-line.tsx'

/** The still's side in pixels: sharp at the card's size, a few tens of KiB as a JPEG. */
const SIDE = 480

/**
 * The desk's camera, live, with a button that takes a square still from its middle (a face fills
 * the middle of a webcam's frame) and hands it on as a JPEG. The camera is stopped when the dialog
 * closes. `save` sends it to the box; its refusal shows here, in words.
 */
export function PhotoCapture({ save, onDone }: { save(photo: Blob): Promise<void>; onDone(): void }) {
  const video = useRef<HTMLVideoElement>(null)
  const box = useRef<HTMLDivElement>(null)
  const [stream, setStream] = useState<MediaStream | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  // The dialog takes the focus, so Esc closes it and Tab walks its buttons.
  useEffect(() => box.current?.focus(), [])

  useEffect(() => {
    let opened: MediaStream | null = null
    let closed = false
    navigator.mediaDevices
      ?.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false })
      .then((camera) => {
        if (closed) return camera.getTracks().forEach((track) => track.stop())
        opened = camera
        setStream(camera)
        if (video.current) video.current.srcObject = camera
      })
      .catch(() =>
        setError('The camera could not be opened: check that one is plugged in and allowed for this page.'),
      )
    if (!navigator.mediaDevices)
      setError('This browser gives the page no camera (it needs https or this computer).')
    return () => {
      closed = true
      opened?.getTracks().forEach((track) => track.stop())
    }
  }, [])

  const take = async () => {
    const frame = video.current
    if (!frame || frame.videoWidth === 0) return
    const side = Math.min(frame.videoWidth, frame.videoHeight)
    const canvas = document.createElement('canvas')
    canvas.width = SIDE
    canvas.height = SIDE
    canvas
      .getContext('2d')!
      .drawImage(
        frame,
        (frame.videoWidth - side) / 2,
        (frame.videoHeight - side) / 2,
        side,
        side,
        0,
        0,
        SIDE,
        SIDE,
      )
    const photo = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85))
    if (photo === null) return setError('The still could not be made: try again.')
    setSaving(true)
    try {
      await save(photo)
      onDone()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setSaving(false)
    }
  }

  return (
    <div
      class="photo-capture"
      role="dialog"
      aria-modal="true"
      aria-label="Take a photo"
      tabIndex={-1}
      ref={box}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !saving) onDone()
      }}
    >
      <video ref={video} autoPlay playsInline muted class="camera" />
      <ErrorLine message={error} />
      <div class="actions">
        <button type="button" onClick={() => void take()} disabled={stream === null || saving}>
          {saving ? 'Saving…' : 'Take photo'}
        </button>
        <button type="button" class="quiet" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  )
}

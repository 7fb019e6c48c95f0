import type { ComponentChildren, Ref } from 'preact'
import { useState } from 'preact/hooks'
import { api, ApiError, messageOf } from '../../api.ts'
import { fullName, todayIn } from '../../format.ts'
import { AgeBadge, CustomerPhoto } from '../../components/customer-photo.tsx'
import { ErrorLine } from '../../components/error-line.tsx'
import { PhotoCapture } from '../../components/photo-capture.tsx'

/** Who the page is about, as its head shows them. */
export interface Identified {
  id: number
  first_name: string
  last_name: string
  telephone: string
  birthday: string | null
  profile_image_url: string
}

/** PUT /api/customers/<id>/photo/'s answer. */
interface KeptPhoto {
  profile_image_url: string
  taken_at: string
}

/** The box's own photo of the customer (a link elsewhere is not the box's to remove). */
const photoPath = (id: number) => `/api/customers/${id}/photo/`
const isBoxPhoto = (c: Identified) => new URL(c.profile_image_url, location.href).pathname === photoPath(c.id)

/**
 * The customer page's head: the photo large beside the name, the age (a minor's badge) and the
 * phone, and the desk's camera to take a photo (or take it again) or remove it. `children` go beside
 * the name (the page's Check in).
 */
export function CustomerIdentity({
  customer,
  timeZone,
  heading,
  onChanged,
  children,
}: {
  customer: Identified
  timeZone: string
  heading: Ref<HTMLHeadingElement>
  /** After a photo was kept or removed: the page reads the customer again. */
  onChanged: () => void
  children?: ComponentChildren
}) {
  const [capturing, setCapturing] = useState(false)
  const [error, setError] = useState<string | null>(null)
  // A new photo has the same link as the last: its time makes the browser fetch it, not reuse it.
  const [version, setVersion] = useState<string | null>(null)
  const name = fullName(customer.first_name, customer.last_name)
  const shown =
    version !== null && customer.profile_image_url !== ''
      ? { ...customer, profile_image_url: `${customer.profile_image_url}?v=${encodeURIComponent(version)}` }
      : customer

  const save = async (photo: Blob) => {
    const form = new FormData()
    form.append('photo', photo, 'photo.jpg')
    const kept = await api<KeptPhoto>('PUT', photoPath(customer.id), form)
    setVersion(kept.taken_at)
    setError(null)
    onChanged()
  }
  const remove = async () => {
    try {
      await api('DELETE', photoPath(customer.id))
      setError(null)
      onChanged()
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) setError(messageOf(e))
    }
  }

  return (
    <div class="customer-head">
      <CustomerPhoto customer={shown} size="large" />
      <div class="who">
        <div class="who-name">
          <h2 ref={heading} tabIndex={-1}>
            {name}
          </h2>
          {children}
        </div>
        <p class="who-facts">
          <AgeBadge birthday={customer.birthday} today={todayIn(timeZone)} />
          <span class="phone">{customer.telephone === '' ? 'No phone' : customer.telephone}</span>
        </p>
        <div class="photo-actions">
          <button type="button" class="quiet" onClick={() => setCapturing(true)}>
            {customer.profile_image_url === '' ? 'Take photo' : 'Take a new photo'}
          </button>
          {customer.profile_image_url !== '' && isBoxPhoto(customer) && (
            <button type="button" class="quiet" onClick={() => void remove()}>
              Remove photo
            </button>
          )}
        </div>
        <ErrorLine message={error} />
      </div>
      {capturing && (
        <div class="photo-backdrop">
          <PhotoCapture save={save} onDone={() => setCapturing(false)} />
        </div>
      )}
    </div>
  )
}

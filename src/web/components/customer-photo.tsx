import { useState } from 'preact/hooks'
import { ageOn, fullName, MINOR_UNDER, todayIn } from '../format.ts'
import './customer-photo.css'

export interface Pictured {
  first_name: string
  last_name: string
  profile_image_url?: string | null
}

/**
 * The customer's photo, or their initials where there is none (or it cannot be loaded): staff
 * compare it with the face at the counter. The box serves photos only to signed-in staff, which
 * the page's session is.
 */
export function CustomerPhoto({
  customer,
  size = 'small',
}: {
  customer: Pictured
  size?: 'small' | 'medium' | 'large'
}) {
  // The link that failed: a new photo (another link) is tried afresh.
  const [failed, setFailed] = useState<string | null>(null)
  const name = fullName(customer.first_name, customer.last_name)
  const url = customer.profile_image_url
  if (url && failed !== url)
    return (
      <img
        class={`photo ${size}`}
        src={url}
        alt={`Photo of ${name}`}
        decoding="async"
        onError={() => setFailed(url)}
      />
    )
  const initials = [customer.first_name, customer.last_name].map((part) => part.charAt(0)).join('')
  // Drawn by the style sheet: the initials stand in for a picture, not for text to read.
  return (
    <span
      class={`photo ${size} initials`}
      role="img"
      aria-label={`No photo of ${name}`}
      data-initials={initials.toUpperCase()}
    />
  )
}

/**
 * "34" or "15, minor" beside a name: the badge tells staff a guardian's word is needed. `today` is
 * the gym's day; without it, the desk computer's.
 */
export function AgeBadge({ birthday, today }: { birthday: string | null | undefined; today?: string }) {
  if (!birthday) return null
  const age = ageOn(birthday, today ?? todayIn())
  return age < MINOR_UNDER ? (
    <span class="age minor" title={`Born ${birthday}`}>
      {age}, minor
    </span>
  ) : (
    <span class="age" title={`Born ${birthday}`}>
      {age}
    </span>
  )
}

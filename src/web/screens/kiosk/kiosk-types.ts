/** The kiosk's answer (POST /api/kiosk/check-in/): the same shape for every outcome. */
export interface KioskAnswer {
  outcome: 'admitted' | 'already_inside' | 'refused' | 'unknown_card' | 'wrong_pin' | 'see_desk' | 'throttled'
  light: 'green' | 'amber' | 'red'
  first_name: string | null
  message: string
  details: string[]
}

/** Whether the account's session is the kiosk's (GET /api/my-account/ says `kiosk`). */
export const isKiosk = (account: object): boolean => (account as { kiosk?: boolean }).kiosk === true

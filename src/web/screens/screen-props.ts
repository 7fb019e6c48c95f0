import type { Account, Gym } from '../types.ts'

/**
 * Where the desk is, or where a screen sends it: a screen of the menu (screens.ts), and the
 * customer it opens with when it names one (a card's "Open customer", a customer's "Sell").
 */
export interface DeskPlace {
  screen: string
  customerId?: number
}

/**
 * What the desk gives every screen: who is signed in, the gym they chose, the place that opened the
 * screen, and a way to go elsewhere. Apart from the menu (screens.ts), which imports each screen, so
 * that no screen imports the menu back.
 */
export interface ScreenProps {
  account: Account
  gym: Gym
  place: DeskPlace
  open(place: DeskPlace): void
}

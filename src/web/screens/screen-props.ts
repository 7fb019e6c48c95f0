import type { Account, Gym } from '../types.ts'

/**
 * What the desk gives every screen: who is signed in, and the gym they chose. Apart from the menu
 * (screens.ts), which imports each screen, so that no screen imports the menu back.
 */
export interface ScreenProps {
  account: Account
  gym: Gym
}

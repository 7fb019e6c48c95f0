import type { RefusalCode } from './types.ts'

/**
 * A scan's answer: in, in with a notice (the pass's last entry), in with the gym at capacity, one
 * of the door's refusals, or no answer from the appliance.
 */
export type Outcome = 'checked_in' | 'notice' | 'full' | RefusalCode | 'failed'

/** A short tune: each note's pitch (Hz) and length (s), played one after the other. */
interface Tune {
  wave: OscillatorType
  notes: Array<[hertz: number, seconds: number]>
}

/**
 * A different sound for each outcome, so staff know the answer before they look: a rising chime
 * lets in, a falling or buzzing one does not, each refusal its own.
 */
const TUNES: Record<Outcome, Tune> = {
  checked_in: {
    wave: 'sine',
    notes: [
      [660, 0.08],
      [990, 0.14],
    ],
  },
  // Amber: already inside, or in with something to tell; the same soft double note.
  duplicate_check_in: {
    wave: 'triangle',
    notes: [
      [520, 0.12],
      [520, 0.12],
    ],
  },
  notice: {
    wave: 'triangle',
    notes: [
      [520, 0.12],
      [520, 0.12],
    ],
  },
  // In, but the gym is at capacity: the green chime, then a low warning note.
  full: {
    wave: 'triangle',
    notes: [
      [660, 0.08],
      [990, 0.14],
      [262, 0.3],
    ],
  },
  check_in_alerts: {
    wave: 'square',
    notes: [
      [330, 0.12],
      [330, 0.12],
    ],
  },
  no_entry_method: {
    wave: 'square',
    notes: [
      [440, 0.1],
      [294, 0.18],
    ],
  },
  customer_not_found: { wave: 'sawtooth', notes: [[196, 0.3]] },
  invalid_location: { wave: 'sawtooth', notes: [[150, 0.3]] },
  failed: {
    wave: 'sawtooth',
    notes: [
      [150, 0.15],
      [110, 0.25],
    ],
  },
}

let context: AudioContext | null = null

/**
 * Makes the audio context ahead of the first scan: making one blocks the page for a moment (half a
 * second in a browser without a sound device), which would otherwise come between the first scan's
 * answer and its card. Made before the user has done anything on the page, it waits suspended until
 * a scan resumes it.
 */
export function prepareSound(): void {
  try {
    context ??= new AudioContext()
  } catch {
    // A browser without sound still shows the card.
  }
}

/** Plays the outcome's tune, generated on the spot (no sound files). */
export function playOutcome(outcome: Outcome): void {
  prepareSound()
  if (context === null) return
  try {
    if (context.state === 'suspended') void context.resume()
    const tune = TUNES[outcome]
    let at = context.currentTime
    for (const [hertz, seconds] of tune.notes) {
      const oscillator = context.createOscillator()
      const gain = context.createGain()
      oscillator.type = tune.wave
      oscillator.frequency.value = hertz
      // A quick fade in and out: a note cut off sharply clicks.
      gain.gain.setValueAtTime(0, at)
      gain.gain.linearRampToValueAtTime(0.2, at + 0.01)
      gain.gain.linearRampToValueAtTime(0, at + seconds)
      oscillator.connect(gain).connect(context.destination)
      oscillator.start(at)
      oscillator.stop(at + seconds)
      at += seconds + 0.03
    }
  } catch {
    // A browser without sound still shows the card.
  }
}

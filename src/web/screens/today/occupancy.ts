/** How full the gym is: amber from 80% of its capacity, red from 90%; no colour without a capacity. */
export function occupancyLevel(inside: number, capacity: number | null): 'normal' | 'busy' | 'full' {
  if (capacity === null || capacity <= 0) return 'normal'
  const share = inside / capacity
  return share >= 0.9 ? 'full' : share >= 0.8 ? 'busy' : 'normal'
}

/** An English ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 23rd, 111th, 1001st. */
export function ordinal(n: number): string {
  const lastTwo = n % 100
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`
  const suffix = n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th'
  return `${n}${suffix}`
}

/** The text a milestone shows at the door and in the check-in's milestone_list. */
export const milestoneText = (count: number): string => `${ordinal(count)} check-in`

/**
 * The milestones this check-in reaches: the organization's milestone counts equal to it. A count
 * listed twice still gives one text (a person reaches their 10th check-in once).
 */
export const reachedMilestones = (milestones: readonly number[], checkInCount: number): string[] =>
  milestones.includes(checkInCount) ? [milestoneText(checkInCount)] : []

/**
 * Word lists for believable people and places in Colorado's Front Range. Emails use the reserved
 * example domains and telephones the 555-01xx range, so no demo record reaches a real person.
 */

/** Comma-separated words (some with spaces, like "Van der Berg") to a list. */
const list = (text: string): readonly string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')

export const FEMALE_NAMES = list(`
  Olivia, Emma, Charlotte, Amelia, Sophia, Mia, Isabella, Ava, Evelyn, Harper, Luna, Camila, Sofia,
  Scarlett, Elizabeth, Eleanor, Emily, Chloe, Mila, Violet, Penelope, Gianna, Aria, Abigail, Ella,
  Avery, Hazel, Nora, Layla, Lily, Aurora, Nova, Ellie, Madison, Grace, Isla, Willow, Zoe, Riley,
  Stella, Hannah, Priya, Mei, Yuki, Fatima, Leilani, Ximena, Valentina, Naomi, Ruth, Katherine,
  Jennifer, Jessica, Sarah, Rebecca, Megan, Lauren, Rachel, Alexandra, Margaret, Diana, Julia, Maya,
  Ingrid, Astrid, Aisha, Noor, Chiara, Ana, Lucia
`)

export const MALE_NAMES = list(`
  Liam, Noah, Oliver, James, Elijah, William, Henry, Lucas, Benjamin, Theodore, Mateo, Levi,
  Sebastian, Daniel, Jack, Michael, Alexander, Owen, Asher, Samuel, Ethan, Leo, Jackson, Mason, Ezra,
  John, Hudson, Luca, Aiden, Joseph, David, Jacob, Logan, Luke, Julian, Gabriel, Grayson, Wyatt,
  Matthew, Maverick, Dylan, Isaac, Elias, Anthony, Thomas, Jayden, Carter, Santiago, Ezekiel,
  Charles, Christopher, Robert, Andrew, Nicholas, Jonathan, Timothy, Kenji, Arjun, Omar, Diego,
  Tomas, Rafael, Kai, Malik, Finn, Nils, Emeka, Hiro, Wei, Marcus
`)

export const LAST_NAMES = list(`
  Smith, Johnson, Williams, Brown, Jones, Garcia, Miller, Davis, Rodriguez, Martinez, Hernandez,
  Lopez, Gonzalez, Wilson, Anderson, Thomas, Taylor, Moore, Jackson, Martin, Lee, Perez, Thompson,
  White, Harris, Sanchez, Clark, Ramirez, Lewis, Robinson, Walker, Young, Allen, King, Wright, Scott,
  Torres, Nguyen, Hill, Flores, Green, Adams, Nelson, Baker, Hall, Rivera, Campbell, Mitchell,
  Carter, Roberts, Gomez, Phillips, Evans, Turner, Diaz, Parker, Cruz, Edwards, Collins, Reyes,
  Stewart, Morris, Morales, Murphy, Cook, Rogers, Gutierrez, Ortiz, Morgan, Cooper, Peterson, Bailey,
  Reed, Kelly, Howard, Ramos, Kim, Cox, Ward, Richardson, Watson, Brooks, Chavez, Wood, James,
  Bennett, Gray, Mendoza, Ruiz, Hughes, Price, Alvarez, Castillo, Sanders, Patel, Myers, Long, Ross,
  Foster, Jimenez, Yamamoto, Tanaka, Chen, Wang, Singh, Okafor, Haddad, Novak, Kowalski, Larsen,
  O'Brien, McAllister, Sullivan, Fitzgerald, Schmidt, Becker, Rossi, Bianchi, Dubois, Moreau,
  Lindqvist, Johansson, Andersen, Nakamura, Park, Choi, Tran, Pham, Mahmoud, Hassan, Begay, Yazzie,
  Silva, Costa, Ferreira, Vega, Romero, Delgado, Herrera, Medina, Van der Berg, De la Cruz, St. John,
  Abernathy, Whitaker, Holloway, Prescott, Kincaid, Sato, Ito
`)

/** Given name -> the name some people with it go by (the customer's preferred_name). */
export const NICKNAMES: Record<string, string> = {
  Katherine: 'Kate',
  Elizabeth: 'Liz',
  Alexandra: 'Alex',
  Margaret: 'Maggie',
  Jennifer: 'Jen',
  Rebecca: 'Becca',
  Christopher: 'Chris',
  Alexander: 'Xander',
  Nicholas: 'Nick',
  Jonathan: 'Jon',
  Timothy: 'Tim',
  Benjamin: 'Ben',
  Theodore: 'Teddy',
  Michael: 'Mike',
  Robert: 'Bobby',
  Samuel: 'Sam',
  William: 'Will',
  Matthew: 'Matt',
}

export const STREETS = list(`
  Larimer St, Blake St, Market St, Wazee St, Colfax Ave, Pearl St, Walnut St, Arapahoe Ave,
  Baseline Rd, Broadway, Federal Blvd, Sheridan Blvd, Wadsworth Blvd, Kipling St, Washington Ave,
  Ford St, Jackson St, Cherry Creek Dr, Evans Ave, Yale Ave, Alameda Ave, Tennyson St, Lowell Blvd,
  Zuni St, Navajo St, Gaylord St, Downing St, Ogden St, Marion St, Humboldt St, Table Mesa Dr,
  Mapleton Ave, Spruce St, Canyon Blvd, Folsom St, Iris Ave, Main St, Ken Pratt Blvd,
  Lookout Mountain Rd, Clear Creek Way, Aspen Ct, Columbine Ln, Bluebell Ave, Flagstaff Rd
`)

/** Where customers live; `near` is the demo gym (by index) closest to home. */
export const TOWNS: readonly { city: string; postcodes: readonly string[]; near: number }[] = [
  {
    city: 'Denver',
    postcodes: ['80202', '80203', '80205', '80206', '80209', '80210', '80211', '80218'],
    near: 0,
  },
  { city: 'Aurora', postcodes: ['80010', '80012', '80014'], near: 0 },
  { city: 'Lakewood', postcodes: ['80226', '80227', '80228'], near: 0 },
  { city: 'Englewood', postcodes: ['80110', '80113'], near: 0 },
  { city: 'Boulder', postcodes: ['80301', '80302', '80303', '80304', '80305'], near: 1 },
  { city: 'Louisville', postcodes: ['80027'], near: 1 },
  { city: 'Longmont', postcodes: ['80501', '80503'], near: 1 },
  { city: 'Lafayette', postcodes: ['80026'], near: 1 },
  { city: 'Golden', postcodes: ['80401', '80403'], near: 2 },
  { city: 'Arvada', postcodes: ['80002', '80003', '80004', '80005'], near: 2 },
  { city: 'Wheat Ridge', postcodes: ['80033'], near: 2 },
]

export const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'] as const

export const AREA_CODES = ['303', '720'] as const

export const RELATIONS_OF_CONTACTS = ['Spouse', 'Partner', 'Parent', 'Sibling', 'Friend', 'Roommate'] as const

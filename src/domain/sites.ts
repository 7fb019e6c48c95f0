/**
 * A site's name (`--site`) and the organization's name on the hub (`--hub-organization`): lowercase
 * letters, digits and hyphens, at most 40, neither starting nor ending with a hyphen. Each is one
 * token of the hub's subjects (`belay.<organization>.changes.<site>`), which allow no dots or spaces.
 */
export const SITE_NAME = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/

export const SITE_NAME_RULE = 'lowercase letters, digits and hyphens, at most 40'

/**
 * Locations of one tool call drawn at first: an agent may name 10,000 files in one tool call (on its card each is a row
 * with two buttons, 50,000 nodes that held the page for seconds and made the card a wall); "Show all" draws the rest.
 * Its own module so the approval prompt takes the number without the card's list.
 */
export const LOCATIONS_SHOWN = 50

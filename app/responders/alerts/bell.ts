/** The bell counts unacknowledged alerts up to this many and then shows "99+" (shared by the server and the layout). */
export const BELL_COUNT_CAP = 99;

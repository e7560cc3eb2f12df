// The inbox queue's views and states (decision 046). Not a .server module: the screen's tabs and links read them too.

/** The queue's views (decision 046): the signed-in user's, nobody's (a conversation with no contact is nobody's), everyone's. */
export const QUEUE_VIEWS = ["mine", "unassigned", "all"] as const;
export type QueueView = (typeof QUEUE_VIEWS)[number];
export const QUEUE_STATES = ["open", "snoozed", "closed"] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/** The views a user is offered: a standard user (seeAll false) only their own and the unassigned ones. */
export function queueViews(seeAll: boolean): readonly QueueView[] {
  return seeAll ? QUEUE_VIEWS : QUEUE_VIEWS.slice(0, 2);
}

/** The sidebar shows "99+" above this many unread conversations. */
export const UNREAD_COUNT_CAP = 99;

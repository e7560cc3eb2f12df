// Everyone's open conversations (decision 046): what the conversation list showed before it became a queue.
export const ALL_OPEN = { view: "all", state: "open", userId: 0, seeAll: true, now: new Date() } as const;

/** Message Center tabs (shared by the screen and the server list query). */
export const MESSAGE_TABS = ["all", "incoming", "outgoing", "failed"] as const;
export type MessageTab = (typeof MESSAGE_TABS)[number];

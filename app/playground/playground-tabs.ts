/** The Testing playground's tabs (`?tab=`); shared by the loader and the screen. */
export const PLAYGROUND_TABS = ["manual", "broadcast", "variables"] as const;
export type PlaygroundTab = (typeof PLAYGROUND_TABS)[number];

// The pipeline stages' fixed rules (decision 053), in a module the browser bundle keeps: the /pipeline-stages screen
// renders with them, and a .server module is empty in the browser.
export const MAX_STAGES = 20;
export const MAX_STAGE_LABEL = 40;
/** Built in: every new contact starts in `new`; the first message sent moves it to `contacted` (a trigger). */
export const BUILT_IN_STAGES = ["new", "contacted"] as const;

// Shared by the app (manage-users.server.ts) and the Node admin scripts (scripts/lib/users.mjs): the same refusal,
// in the same words, on every path that could leave the organisation without an active superuser.
export const LAST_SUPERUSER = "At least one active superuser must remain: promote another user first.";
// Deactivating a user who owns contacts hands them to another active user first (decision 044), app and script alike.
export const HAND_OFF_REQUIRED = "Choose who takes over this user's contacts";
export const HAND_OFF_INVALID = "Choose another active user to take over the contacts";

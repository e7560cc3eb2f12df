// Shared by the app (manage-users.server.ts) and the Node admin scripts (scripts/lib/users.mjs): the same refusal,
// in the same words, on every path that could leave the organisation without an active superuser.
export const LAST_SUPERUSER = "At least one active superuser must remain: promote another user first.";

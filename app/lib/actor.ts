/** Who does something, for the activity log and the rows they create: the signed-in user and the address they came from. */
export type Actor = { userId: number; ipAddress: string | null };

import type { Db } from "~/db/client.server";
import { pageQuery, pageResponse } from "~/lib/api.server";
import { listUsers, MAX_USERS_PAGE } from "./manage-users.server";

type UserRow = Awaited<ReturnType<typeof listUsers>>["users"][number];

/** `?after=&limit=` of the user list APIs → one page with its `X-Next-Cursor` header (absent on the last page). */
export async function usersPage(db: Db, request: Request, present: (user: UserRow) => unknown = (u) => u): Promise<Response> {
  const { after, limit } = pageQuery(request, MAX_USERS_PAGE, "a user");
  const page = await listUsers(db, { after: after ?? null, limit });
  return pageResponse(page.users.map(present), page);
}

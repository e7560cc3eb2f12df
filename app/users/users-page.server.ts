import type { Db } from "~/db/client.server";
import { AppError } from "~/lib/app-error";
import { parseId } from "~/lib/ids";
import { listUsers, MAX_USERS_PAGE } from "./manage-users.server";

/** `?after=&limit=` of the user list APIs → one page and its `X-Next-Cursor` header (absent on the last page). */
export async function usersPageFrom(db: Db, url: URL) {
  const rawLimit = url.searchParams.get("limit");
  const limit = rawLimit === null ? undefined : Number(rawLimit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MAX_USERS_PAGE)) {
    throw new AppError("validation", `limit must be an integer from 1 to ${MAX_USERS_PAGE}`);
  }
  const rawAfter = url.searchParams.get("after");
  const after = rawAfter === null ? null : parseId(rawAfter);
  if (rawAfter !== null && after === null) throw new AppError("validation", "after must be a user id");
  const page = await listUsers(db, { after, limit });
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (page.nextCursor !== null) headers.set("X-Next-Cursor", String(page.nextCursor));
  return { users: page.users, headers };
}

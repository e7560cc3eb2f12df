// The upload → Match columns → preview steps of Upload CSV as a person clicks through them (decision 024).

/**
 * Posts the import's Match columns step with the screen's own guesses (each `colN` select's selected option), as
 * "Continue to preview" does; throws when the page has no such step or the post is refused.
 * `get(path)` and `post(path, body)` answer with the Worker's Response, redirects not followed.
 */
export async function matchColumnsAsGuessed(get, post, location) {
  const html = await (await get(location)).text();
  const columns = new URLSearchParams({ intent: "match" });
  for (const [, name, options] of html.matchAll(/<select[^>]*name="(col\d+)"[^>]*>([\s\S]*?)<\/select>/g))
    columns.set(name, /<option[^>]*value="([^"]*)"[^>]*selected/.exec(options)?.[1] ?? "");
  if (![...columns.keys()].some((k) => k.startsWith("col")))
    throw new Error("no Match columns step on the import page");
  const matched = await post(location, columns);
  if (matched.status !== 302) throw new Error(`match failed: ${matched.status} ${await matched.text()}`);
}

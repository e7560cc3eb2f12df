import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field } from "./field";
import { HiddenFields } from "./hidden-fields";
import { Badge, PriorityBadge } from "./badge";
import type { Tone } from "./alert";

// Server markup is what a phone without JavaScript posts, so these check the HTML itself.
const html = (node: ReactElement) => renderToStaticMarkup(node);

describe("HiddenFields", () => {
  it("posts one input per field, an array once per item, and leaves out null and undefined", () => {
    const out = html(<HiddenFields fields={{ intent: "send", id: 7, pick: [3, 4], resume: null, note: undefined }} />);
    expect(out).toBe(
      '<input type="hidden" name="intent" value="send"/><input type="hidden" name="id" value="7"/>' +
        '<input type="hidden" name="pick" value="3"/><input type="hidden" name="pick" value="4"/>',
    );
  });

  it("renders nothing for an empty list, and escapes what it posts", () => {
    expect(html(<HiddenFields fields={{ pick: [] }} />)).toBe("");
    expect(html(<HiddenFields fields={{ message: '"><script>x</script>' }} />)).toBe(
      '<input type="hidden" name="message" value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"/>',
    );
  });
});

describe("Field as a select", () => {
  it("renders the placeholder first, then the options (strings or value/label), then children", () => {
    const out = html(
      <Field
        as="select"
        label="Profile"
        name="p"
        defaultValue="2"
        placeholder="None"
        options={["a", { value: 2, label: "Two" }]}
      >
        <option value="z">Zed</option>
      </Field>,
    );
    const options = [...out.matchAll(/<option[^>]*>[^<]*<\/option>/g)].map((m) => m[0]);
    expect(options).toEqual([
      '<option value="">None</option>',
      "<option>a</option>",
      '<option value="2" selected="">Two</option>',
      '<option value="z">Zed</option>',
    ]);
    expect(out).toMatch(/<label for="([^"]+)"[^>]*>Profile<\/label><select[^>]*id="\1"/);
  });
});

describe("PriorityBadge", () => {
  it.each([
    ["critical", "danger"],
    ["high", "warning"],
    ["medium", "info"],
    ["low", "neutral"],
    ["unknown", "neutral"],
  ])("%s reads as itself in the %s tone", (priority, tone) => {
    const out = html(<PriorityBadge priority={priority} />);
    expect(out).toContain(`>${priority}</span>`);
    expect(out).toBe(html(<PriorityBadgeTone tone={tone} text={priority} />));
  });
});

function PriorityBadgeTone({ tone, text }: { tone: string; text: string }) {
  return <Badge tone={tone as Tone}>{text}</Badge>;
}

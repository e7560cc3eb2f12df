import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field } from "./field";
import { HiddenFields } from "./hidden-fields";
import { Badge, PriorityBadge } from "./badge";
import type { Tone } from "./alert";
import { failureByIntent, fieldProps, postedValues } from "~/components/form-failure";
import { Checkbox } from "./checkbox";
import { CheckboxList } from "./checkbox-list";
import { SecretOnce } from "./secret-once";
import { VerdictButtons } from "./verdict-buttons";

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

describe("SecretOnce", () => {
  it("shows the secret once in a wrapping code block under its heading, with a test id for the value", () => {
    const out = html(
      <SecretOnce data-testid="api-key-secret" title="Copy it now: it is not shown again." secret="hk_abc">
        <p>How to use it</p>
      </SecretOnce>,
    );
    expect(out).toBe(
      '<div class="rounded-md border p-3 text-sm border-success-border bg-success-soft text-success-text" data-testid="api-key-secret">' +
        '<p class="font-medium">Copy it now: it is not shown again.</p>' +
        '<code class="mt-2 block break-all rounded bg-muted p-2 text-sm" data-testid="api-key-secret-value">hk_abc</code>' +
        "<p>How to use it</p></div>",
    );
  });
});

describe("Checkbox", () => {
  it("posts name=true when ticked (or its own value), inside its label", () => {
    const ticked = html(<Checkbox name="useAI" label="Use AI" defaultChecked />);
    expect(ticked).toMatch(
      /^<label class="flex items-center gap-2 text-sm"><input type="checkbox" name="useAI" [^>]*\/> Use AI<\/label>$/,
    );
    expect(ticked).toMatch(/ value="true"/);
    expect(ticked).toMatch(/ checked=""/);
    const other = html(<Checkbox name="x" value="on" label="X" className="pb-2" />);
    expect(other).toMatch(/^<label class="flex items-center gap-2 text-sm pb-2">/);
    expect(other).toMatch(/ value="on"/);
    expect(other).not.toMatch(/checked/);
  });
});

describe("CheckboxList in a form", () => {
  const items = [
    { value: "a", label: "A" },
    { value: "b", label: "B" },
  ];
  it("shows the first error under the list, and with showLabel a visible label above it", () => {
    const plain = html(<CheckboxList name="scopes" label="Scopes" items={items} checked={new Set(["a"])} />);
    expect(plain.startsWith("<fieldset")).toBe(true);
    expect(plain).not.toContain("text-danger");
    const failed = html(
      <CheckboxList name="scopes" label="Scopes" items={items} checked={new Set()} errors={["Choose one", "x"]} />,
    );
    expect(failed).toMatch(/<\/fieldset><p class="text-sm text-danger">Choose one<\/p>$/);
    const labelled = html(
      <CheckboxList name="events" label="Events" showLabel items={items} checked={new Set()} errors={["No"]} />,
    );
    expect(labelled).toMatch(
      /^<div class="space-y-1"><p class="text-sm font-medium">Events<\/p><fieldset.*<\/fieldset><p class="text-sm text-danger">No<\/p><\/div>$/,
    );
  });
});

describe("VerdictButtons", () => {
  it("posts name=right|wrong and marks the chosen one pressed", () => {
    const out = html(<VerdictButtons name="verdict" verdict="wrong" />);
    const buttons = [...out.matchAll(/<button([^>]*)>.*?([A-Z][a-z]+)<\/button>/g)].map((m) => [m[1], m[2]]);
    expect(buttons.map(([, label]) => label)).toEqual(["Right", "Wrong"]);
    expect(buttons[0][0]).toMatch(/type="submit".*name="verdict" value="right".*aria-pressed="false"/);
    expect(buttons[1][0]).toMatch(/name="verdict" value="wrong".*aria-pressed="true"/);
    expect(html(<VerdictButtons name="intent" verdict={null} />)).not.toContain('aria-pressed="true"');
  });
});

describe("postedValues and failureByIntent", () => {
  const failure = (intent: string, values: Record<string, unknown>) => ({
    ok: false,
    code: "validation",
    message: "m",
    fieldErrors: {},
    invalid: true,
    intent,
    values,
  });
  it("reads a checkbox group back whether one or several boxes were ticked", () => {
    expect(postedValues(failure("create", { events: "message.received" }), "events")).toEqual(["message.received"]);
    expect(postedValues(failure("create", { events: ["a", "b"] }), "events")).toEqual(["a", "b"]);
    expect(postedValues(failure("create", {}), "events", ["x"])).toEqual([]);
    expect(postedValues(undefined, "events", ["x"])).toEqual(["x"]);
  });
  it("binds a plain Field to its name, what was posted (or the fallback) and its errors", () => {
    const f = { ...failure("create", { url: "ftp://x", maxPerHour: "" }), fieldErrors: { url: ["Use https"] } };
    expect(fieldProps(f, "url")).toEqual({ name: "url", defaultValue: "ftp://x", errors: ["Use https"] });
    expect(fieldProps(f, "maxPerHour", "600")).toEqual({ name: "maxPerHour", defaultValue: "600", errors: undefined });
    expect(fieldProps(undefined, "maxPerHour", "600").defaultValue).toBe("600");
  });
  it("gives the failure to the form that sent it, or to the rows", () => {
    const f = failure("create", {});
    expect(failureByIntent(f, "create")).toEqual({ form: f });
    expect(failureByIntent(failure("revoke", {}), "create").other?.intent).toBe("revoke");
    expect(failureByIntent({ ok: true }, "create")).toEqual({});
  });
});

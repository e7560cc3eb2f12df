import { useEffect, useRef, useState } from "react";
import { Button, CheckboxList, Field, SearchBox } from "~/components/ui";
import type { ContactPickerData } from "./load-contact-picker.server";
import { formatCount } from "~/lib/format-count";

/**
 * The one contact picker (campaign create / add contacts, the Testing Playground's broadcast). It lives inside the
 * screen's POST form and posts `contactIds`: its Search and paging buttons submit that same form as a GET, so the
 * loader (loadContactPicker) re-renders it with the typed fields and the ids picked so far (hidden inputs for those
 * not on this page) — the same with and without JS. `selectAll` offers "every contact matching the search"
 * (campaigns; the loader then counts the matches).
 */
export function ContactPicker({
  data,
  picked,
  selectAll,
  action,
  segments,
}: {
  data: ContactPickerData;
  picked: number[];
  selectAll?: { checked: boolean };
  action?: string;
  /** The team's saved segments (decision 075): one chosen replaces the picks, and is read when the send goes out. */
  segments?: { choices: { id: number; name: string }[]; selected: number | null };
}) {
  const onPage = new Set(data.contacts.map((c) => c.id));
  const keep = picked.filter((id) => !onPage.has(id)).map(String);
  // A page link is a GET submit of the picker's own form, so the picked ids travel with it (no JS needed).
  const page = (name: "before" | "after", cursor: number | null, label: string) =>
    cursor !== null ? (
      <Button
        type="submit"
        size="sm"
        variant="ghost"
        formMethod="get"
        formAction={action}
        formNoValidate
        name={name}
        value={String(cursor)}
      >
        {label}
      </Button>
    ) : null;
  return (
    <div className="space-y-2" data-testid="contact-picker">
      <SearchBox
        inForm
        label="Search contacts to add"
        value={data.q}
        action={action}
        placeholder="Search by name, phone, email or company..."
        buttonTestId="picker-search"
        className="sm:min-w-0"
      />
      <CheckboxList
        data-testid="picker-list"
        label="Contacts"
        name="contactIds"
        items={data.contacts.map((c) => ({
          value: String(c.id),
          label: c.name,
          detail: [c.phone, c.email, c.company].filter(Boolean).join(" · "),
        }))}
        checked={new Set(picked.map(String))}
        keep={keep}
        empty={data.q ? `No contacts match “${data.q}”` : "No contacts yet"}
        footer={
          <div className="flex flex-wrap items-center justify-between gap-2">
            <PickedCount initial={picked.length} />
            <span className="flex gap-2">
              {page("before", data.prevCursor, "Previous")}
              {page("after", data.nextCursor, "More contacts")}
            </span>
          </div>
        }
      />
      {selectAll && data.matching ? (
        <SelectAll q={data.q} matching={data.matching} checked={selectAll.checked} />
      ) : null}
      {segments && segments.choices.length ? (
        <Field
          as="select"
          label="Or a saved segment"
          name="segmentId"
          data-testid="picker-segment"
          defaultValue={segments.selected ? String(segments.selected) : ""}
          placeholder="No segment: the contacts picked above"
          options={segments.choices.map((s) => ({ value: s.id, label: s.name }))}
          hint="Its contacts are read when the message goes out, so whoever fits it then gets it."
        />
      ) : null}
    </div>
  );
}

function SelectAll({
  q,
  matching: { n, more },
  checked,
}: {
  q: string;
  matching: { n: number; more: boolean };
  checked: boolean;
}) {
  const count = more ? `more than ${formatCount(n)}` : formatCount(n);
  return (
    <label className="flex items-center gap-2 text-sm">
      {/* The search the count was made for: the one enrolled, even if the box was retyped since. */}
      <input type="hidden" name="audienceQ" value={q} />
      <input type="checkbox" name="selectAll" value="1" defaultChecked={checked} className="size-4 accent-primary" />
      <span data-testid="select-all-label">
        {q ? `Select all ${count} contacts matching “${q}”` : `Select all ${count} contacts`}
      </span>
    </label>
  );
}

/**
 * "N selected": the server's count of the picks in the URL or the refused draft; with JS it follows the checkboxes
 * (picks kept from other pages travel as hidden fields and count too).
 */
function PickedCount({ initial }: { initial: number }) {
  const [count, setCount] = useState(initial);
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const form = ref.current?.closest("form");
    if (!form) return;
    const recount = () => setCount(new FormData(form).getAll("contactIds").length);
    recount();
    form.addEventListener("change", recount);
    return () => form.removeEventListener("change", recount);
  }, [initial]);
  return (
    <span ref={ref} className="text-fg-muted" data-testid="picked-count" aria-live="polite">
      {formatCount(count)} selected
    </span>
  );
}

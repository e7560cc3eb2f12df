import { Search } from "lucide-react";
import { Button, CheckboxList, Input } from "~/components/ui";
import type { ContactPickerData } from "./load-contact-picker.server";

/**
 * The contact picker inside a campaign form (create, add contacts). It lives in the dialog's POST form: its Search
 * and paging buttons submit the same form as a GET (formMethod), so the loader re-renders the dialog with the
 * typed fields and the ids picked so far (hidden inputs for those not on this page) — the same with and without JS.
 */
export function ContactPicker({ data, picked, selectAll }: { data: ContactPickerData; picked: number[]; selectAll?: { checked: boolean } }) {
  const onPage = new Set(data.contacts.map((c) => c.id));
  const keep = picked.filter((id) => !onPage.has(id)).map(String);
  const { n, more } = data.matching;
  const count = more ? `more than ${n.toLocaleString("en-US")}` : n.toLocaleString("en-US");
  return (
    <div className="space-y-2" data-testid="contact-picker">
      <div className="flex gap-2">
        <label htmlFor="picker-q" className="sr-only">
          Search contacts to add
        </label>
        <Input id="picker-q" type="search" name="q" defaultValue={data.q} placeholder="Search by name, phone, email or company..." className="flex-1" />
        <Button type="submit" variant="secondary" icon={Search} formMethod="get" formNoValidate name="picker" value="search">
          Search
        </Button>
      </div>
      <CheckboxList
        data-testid="picker-list"
        label="Contacts"
        name="contactIds"
        items={data.contacts.map((c) => ({ value: String(c.id), label: c.name, detail: [c.phone, c.email, c.company].filter(Boolean).join(" · ") }))}
        checked={new Set(picked.map(String))}
        keep={keep}
        empty={data.q ? `No contacts match “${data.q}”` : "No contacts yet"}
        footer={
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-fg-muted" data-testid="picked-count">
              {picked.length.toLocaleString("en-US")} picked so far
            </span>
            <span className="flex gap-2">
              {data.prevCursor !== null ? (
                <Button type="submit" size="sm" variant="ghost" formMethod="get" formNoValidate name="before" value={String(data.prevCursor)}>
                  Previous
                </Button>
              ) : null}
              {data.nextCursor !== null ? (
                <Button type="submit" size="sm" variant="ghost" formMethod="get" formNoValidate name="after" value={String(data.nextCursor)}>
                  More contacts
                </Button>
              ) : null}
            </span>
          </div>
        }
      />
      {selectAll ? (
        <label className="flex items-center gap-2 text-sm">
          {/* The search the count was made for: the one enrolled, even if the box was retyped since. */}
          <input type="hidden" name="audienceQ" value={data.q} />
          <input type="checkbox" name="selectAll" value="1" defaultChecked={selectAll.checked} className="size-4 accent-primary" />
          <span data-testid="select-all-label">
            {data.q ? `Select all ${count} contacts matching “${data.q}”` : `Select all ${count} contacts`}
          </span>
        </label>
      ) : null}
    </div>
  );
}

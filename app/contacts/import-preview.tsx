import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Alert, Badge, Button, DialogClose, DialogFooter, LiveRefresh, Table, TBody, Td, THead } from "~/components/ui";
import type { ContactFields } from "./contact-fields";
import { formatCount } from "~/lib/format-count";

type Counts = {
  totalRows: number;
  validRows: number;
  rejectedRows: number;
  fileDuplicates: number;
  existingPhoneRows?: number | null;
  existingEmailRows?: number | null;
};

/**
 * What "Import" will do with the valid rows, from the counts taken when the file was staged: new contacts, rows
 * already in Contacts by phone (updated, or left unchanged when skipped) and by email only (always skipped). Null
 * when the import was not counted.
 */
export function importPlan(c: Counts) {
  if (c.existingPhoneRows == null || c.existingEmailRows == null) return null;
  const existing = c.existingPhoneRows + c.existingEmailRows;
  return {
    newRows: Math.max(0, c.validRows - existing),
    byPhone: c.existingPhoneRows,
    byEmail: c.existingEmailRows,
    existing,
  };
}

/** The confirm button: "Import 46 contacts" when all are new, otherwise what happens to each kind ("Import: 0 new, 46 existing"). */
export function importButtonLabel(c: Counts): string {
  const plan = importPlan(c);
  if (c.validRows === 0) return "No valid contacts";
  if (!plan || plan.existing === 0) return `Import ${c.validRows} ${c.validRows === 1 ? "contact" : "contacts"}`;
  return `Import: ${plan.newRows} new, ${plan.existing} existing`;
}
type PreviewRow = Pick<ContactFields, "firstName" | "lastName" | "phone" | "email" | "company" | "address"> & {
  rowNumber: number;
  unsendableReason: string | null;
};

const n = (x: number) => formatCount(x);

/**
 * A staged upload before anything is saved (the Upload CSV import and Quick Upload & Send): the counts, the first
 * valid rows (a not-sendable number flagged) and the first errors. `columns` picks the last two columns.
 */
export function StagedImportPreview({
  counts,
  rows,
  errors,
  errorCount,
  extra = ["email", "company"],
}: {
  counts: Counts;
  rows: PreviewRow[];
  errors: string[];
  errorCount: number;
  extra?: readonly ["email" | "company" | "address", "email" | "company" | "address"];
}) {
  const label = { email: "Email", company: "Company", address: "Address" } as const;
  return (
    <>
      <ul className="mb-4 flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="import-counts">
        <li>
          <strong>{n(counts.totalRows)}</strong> rows in file
        </li>
        <li>
          <strong>{n(counts.validRows)}</strong> valid contacts
        </li>
        <li>
          <strong>{n(counts.rejectedRows)}</strong> rows with errors
        </li>
        {importPlan(counts) ? (
          <>
            <li data-testid="import-new">
              <strong>{n(importPlan(counts)!.newRows)}</strong> new
            </li>
            {importPlan(counts)!.existing ? (
              <li data-testid="import-existing">
                <strong>{n(importPlan(counts)!.existing)}</strong> already in Contacts
              </li>
            ) : null}
          </>
        ) : null}
        {counts.fileDuplicates ? (
          <li>
            <strong>{n(counts.fileDuplicates)}</strong> repeated in the file (skipped)
          </li>
        ) : null}
      </ul>
      {rows.length ? (
        <Table className="mb-4" data-testid="import-preview" caption={`Preview (first ${rows.length} valid rows)`}>
          <THead columns={["Row", "First Name", "Last Name", "Phone", label[extra[0]], label[extra[1]]]} />
          <TBody>
            {rows.map((r) => (
              <tr key={r.rowNumber}>
                <Td className="text-fg-subtle">{r.rowNumber}</Td>
                <Td>{r.firstName}</Td>
                <Td>{r.lastName}</Td>
                <Td className="font-mono">
                  {r.phone}
                  {r.unsendableReason ? (
                    <span className="ml-2 font-sans" title={r.unsendableReason}>
                      <Badge tone="danger">Not sendable</Badge>
                    </span>
                  ) : null}
                </Td>
                <Td>{r[extra[0]]}</Td>
                <Td>{r[extra[1]]}</Td>
              </tr>
            ))}
          </TBody>
        </Table>
      ) : null}
      {errors.length ? (
        <Alert tone="danger" role="status" className="mb-4" data-testid="import-errors">
          <p className="mb-1 font-semibold">Errors ({errorCount})</p>
          <ul className="list-inside list-disc space-y-0.5">
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </>
  );
}

/**
 * The staged preview's form: what it asks first (`children`), then Cancel (`intent=cancel`) and the button that
 * starts the import (`intent`), both off while a submission is under way.
 */
export function StagedImportForm({
  intent,
  label,
  busy,
  disabled,
  children,
}: {
  intent: string;
  label: string;
  busy: boolean;
  disabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <Form method="post" className="space-y-4">
      {children}
      <DialogFooter>
        <Button type="submit" name="intent" value="cancel" formNoValidate variant="secondary" disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" name="intent" value={intent} disabled={busy || disabled}>
          {label}
        </Button>
      </DialogFooter>
    </Form>
  );
}

/** Progress while the queue saves the rows (only while `status` is "importing"): a bar, and the page kept fresh (polling with JS, a refresh without). */
export function ImportProgress({
  status,
  processed,
  total,
  verb = "Imported",
}: {
  status: string;
  processed: number;
  total: number;
  verb?: string;
}) {
  if (status !== "importing") return null;
  const percent = total ? Math.min(100, Math.round((processed / total) * 100)) : 0;
  return (
    <div className="space-y-2" data-testid="import-progress">
      <LiveRefresh active seconds={1.5} />
      <p className="text-sm">
        {verb} {n(processed)} of {n(total)} contacts…
      </p>
      <div
        className="h-2 w-full overflow-hidden rounded bg-muted"
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="h-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-fg-subtle">You can close this dialog; the work continues in the background.</p>
    </div>
  );
}

/** The end of an import that did not complete: why, and the way back. */
export function ImportStopped({
  status,
  failureMessage,
  failed,
  cancelled,
}: {
  status: string;
  failureMessage: string | null;
  failed: string;
  cancelled: string;
}) {
  if (status !== "failed" && status !== "cancelled") return null;
  return (
    <div className="space-y-4">
      <p role="alert" className="text-sm text-danger-text">
        {status === "failed" ? (failureMessage ?? failed) : cancelled}
      </p>
      <DialogClose>Back to contacts</DialogClose>
    </div>
  );
}

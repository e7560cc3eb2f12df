import { Alert, Field, Table, TBody, Td, THead } from "~/components/ui";
import { COLUMN_TARGETS, NO_PHONE_COLUMN, TARGET_LABELS, type ColumnTarget } from "./column-aliases";
import { StagedImportForm } from "./import-preview";

export type ColumnMatchView = {
  remembered: boolean;
  noPhone: boolean;
  columns: { name: string; target: ColumnTarget | null; samples: string[] }[];
};

const OPTIONS = [{ value: "", label: "Ignore" }, ...COLUMN_TARGETS.map((t) => ({ value: t, label: TARGET_LABELS[t] }))];

/**
 * The Match columns step (decision 024): one select per column of the file, the guess (or the mapping remembered
 * for these headers) pre-selected, a few of the column's values beside it. A plain POST form: `col<i>` per column,
 * then Continue (intent "match") or Cancel.
 */
export function ColumnMatchForm({ match, busy }: { match: ColumnMatchView; busy: boolean }) {
  return (
    <StagedImportForm intent="match" busy={busy} label={busy ? "Matching..." : "Continue to preview"}>
      {match.remembered ? (
        <Alert tone="info" role="status" data-testid="columns-remembered">
          Matched as you chose the last time a file with these columns was uploaded.
        </Alert>
      ) : (
        <p className="text-sm text-fg-muted">
          We matched the columns we recognised. Change any of them, or choose Ignore for a column you do not want.
        </p>
      )}
      {match.noPhone ? (
        <Alert tone="warning" role="status" data-testid="no-phone-column">
          {NO_PHONE_COLUMN}
        </Alert>
      ) : null}
      <Table data-testid="column-match">
        <THead columns={["Column in your file", "Contact field"]} />
        <TBody>
          {match.columns.map((c, i) => (
            <tr key={i} data-testid="column-row">
              <Td className="max-w-0 align-top">
                <span className="block font-medium break-words">{c.name || `Column ${i + 1}`}</span>
                {c.samples.length ? (
                  <span className="block truncate text-xs text-fg-subtle">{c.samples.join(", ")}</span>
                ) : null}
              </Td>
              <Td className="w-1/2 align-top">
                <Field
                  as="select"
                  hideLabel
                  label={`Contact field for ${c.name || `column ${i + 1}`}`}
                  name={`col${i}`}
                  defaultValue={c.target ?? ""}
                  options={OPTIONS}
                />
              </Td>
            </tr>
          ))}
        </TBody>
      </Table>
    </StagedImportForm>
  );
}

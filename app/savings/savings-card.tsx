import { formatCount } from "~/lib/format-count";
import { Form, useNavigation } from "@remix-run/react";
import { Button, Card, Field } from "~/components/ui";
import { MAX_MONTHLY_BILL_DOLLARS, MAX_MONTHLY_KWH } from "./estimate-savings";

type Figure = { name: string; label: string; value: string; basis: string; typed: boolean };

/**
 * What the Solar variables will say for this contact and why (decision 074), and the home's bill, use and utility
 * that the estimate starts from. A plain form to /contacts/:id/savings, so it works without JavaScript.
 */
export function SavingsCard({
  contactId,
  figures,
  state,
  monthlyBill,
  monthlyKwh,
  utilityName,
  back,
}: {
  contactId: number;
  figures: readonly Figure[];
  state: string | null;
  monthlyBill: string;
  monthlyKwh: string;
  utilityName: string;
  back: string;
}) {
  const pending = useNavigation().state === "submitting";
  return (
    <Card title="Savings estimate">
      {figures.length ? (
        <dl className="space-y-2 text-sm" data-testid="savings-figures">
          {figures.map((f) => (
            <div key={f.name} data-variable={f.name}>
              <dt className="text-fg-muted">
                {f.label} <code className="text-xs">{`{{${f.name}}}`}</code>
              </dt>
              <dd className="font-medium">{f.value}</dd>
              <dd className="text-xs text-fg-muted">{f.basis}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm text-fg-muted">No estimate: the public figures are not loaded.</p>
      )}
      {state === "US" ? (
        <p className="mt-2 text-xs text-fg-muted">The contact&apos;s state is unknown: US averages are used.</p>
      ) : null}
      <Form method="post" action={`/contacts/${contactId}/savings`} className="mt-4 space-y-3">
        <input type="hidden" name="back" value={back} />
        <Field
          label="Monthly electric bill ($)"
          id={`bill-${contactId}`}
          name="monthlyBill"
          inputMode="decimal"
          defaultValue={monthlyBill}
          hint={`Up to $${formatCount(MAX_MONTHLY_BILL_DOLLARS)}; empty uses the state's average home`}
        />
        <Field
          label="Monthly use (kWh)"
          id={`kwh-${contactId}`}
          name="monthlyKwh"
          inputMode="numeric"
          defaultValue={monthlyKwh}
          hint={`From the bill, up to ${formatCount(MAX_MONTHLY_KWH)}; it wins over the bill`}
        />
        <Field
          label="Utility"
          id={`utility-${contactId}`}
          name="utilityName"
          maxLength={100}
          defaultValue={utilityName}
        />
        <Button type="submit" variant="secondary" disabled={pending}>
          Save and re-estimate
        </Button>
      </Form>
    </Card>
  );
}

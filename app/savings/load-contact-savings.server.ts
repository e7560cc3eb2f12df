import { parseCustomFields } from "~/contacts/custom-fields";
import { PLATFORM_VARIABLES } from "~/contacts/variables";
import { SAVINGS_VARIABLES, savingsBasis, savingsVariables, type StateSolarData } from "./estimate-savings";
import { estimatesFrom, type Home } from "./savings-data.server";

export type SavingsFigure = { name: string; label: string; value: string; basis: string; typed: boolean };

/**
 * The contact page's Savings card (decision 074): each Solar variable as the next message will quote it — the value
 * typed on the contact when there is one, else the estimate — with where it came from, and the home's own figures.
 * From what the page's own batch read beside the contact (`savingsQueries`): no round trip of its own.
 */
export function contactSavingsFrom(
  contact: Home & { customFields: string | null },
  [setting, stateRows]: readonly [readonly { key: string; value: string }[], readonly StateSolarData[]],
) {
  const estimate = estimatesFrom([contact], setting, stateRows).get(contact.id) ?? null;
  const typed = parseCustomFields(contact.customFields);
  const values = estimate ? savingsVariables(estimate) : null;
  const basis = estimate ? savingsBasis(estimate) : null;
  const figures: SavingsFigure[] = SAVINGS_VARIABLES.flatMap((name): SavingsFigure[] => {
    const label = PLATFORM_VARIABLES.find((v) => v.name === name)?.description ?? name;
    const own = typed[name];
    if (own)
      return [{ name, label, value: own, basis: "Typed on the contact: it wins over the estimate", typed: true }];
    return values && basis ? [{ name, label, value: values[name], basis: basis[name], typed: false }] : [];
  });
  return {
    figures,
    state: estimate?.data.state ?? null,
    monthlyBill: contact.monthlyBillCents == null ? "" : (contact.monthlyBillCents / 100).toFixed(2),
    monthlyKwh: contact.monthlyKwh == null ? "" : String(contact.monthlyKwh),
  };
}

import type { VariableProvider } from "~/messaging/pipeline-hooks";
import { SAVINGS_VARIABLES, savingsVariables } from "./estimate-savings";
import { estimateContactsSavings } from "./savings-data.server";

/**
 * The pipeline's variable provider for the Solar variables (decision 074): a contact's typed value wins; the rest come
 * from the estimate, at send time, so a new bill or a new escalation rate reaches the next message.
 */
export const savingsVariableProvider: VariableProvider = {
  name: "savings: the Solar variables from public data",
  variables: SAVINGS_VARIABLES,
  values: async ({ db }, contactIds) => {
    const estimates = await estimateContactsSavings(db, contactIds);
    return new Map([...estimates].map(([id, e]) => [id, savingsVariables(e)]));
  },
};

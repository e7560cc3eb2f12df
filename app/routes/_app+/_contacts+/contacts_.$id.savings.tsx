import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { contactSubrouteAction, contactSubrouteLoader } from "~/http/contact-guard.server";
import { backField } from "~/http/form-schema";
import { redirectWithToast } from "~/http/toast.server";
import { monthlyBillField, monthlyKwhField, utilityNameField } from "~/contacts/home-usage";
import { setHomeUsage } from "~/savings/set-home-usage.server";

// POST /contacts/:id/savings — the home's bill, use and utility (issue 28 item 4, decision 074). The contact page
// posts here; the answer goes back to the page that asked. Empty fields clear the figure.
const schema = z.object({
  monthlyBill: monthlyBillField.default(""),
  monthlyKwh: monthlyKwhField.default(""),
  utilityName: utilityNameField.default(""),
  back: backField,
});

/** Nothing to show here: a GET goes to the contact's page. */
export function loader(args: LoaderFunctionArgs) {
  return contactSubrouteLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return contactSubrouteAction(
    args,
    { schema, refused: "Figures not saved", typedFields: true },
    async (input, { id, actor, backTo }) => {
      const { monthlyBill: monthlyBillCents, monthlyKwh, utilityName } = input;
      await setHomeUsage(
        args.context.db,
        id,
        { monthlyBillCents, monthlyKwh, utilityName },
        actor,
        args.context.clock(),
      );
      return redirectWithToast(args.context, backTo(input.back), {
        title: "Savings re-estimated from the home's figures",
      });
    },
  );
}

import { formatCount } from "~/lib/format-count";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { contactSubrouteAction, contactSubrouteLoader } from "~/http/contact-guard.server";
import { backField } from "~/http/form-schema";
import { redirectWithToast } from "~/http/toast.server";
import { MAX_MONTHLY_BILL_DOLLARS, MAX_MONTHLY_KWH } from "~/savings/estimate-savings";
import { setHomeUsage } from "~/savings/set-home-usage.server";

// POST /contacts/:id/savings — the home's bill, use and utility (issue 28 item 4, decision 074). The contact page
// posts here; the answer goes back to the page that asked. Empty fields clear the figure.
const BILL = `Monthly bill: a dollar amount from 1 to ${formatCount(MAX_MONTHLY_BILL_DOLLARS)}, e.g. 182.50`;
const KWH = `Monthly use: whole kWh from 1 to ${formatCount(MAX_MONTHLY_KWH)}`;
const blankToNull = (v: string) => (v === "" ? null : v);
const schema = z.object({
  monthlyBill: z
    .string()
    .trim()
    .max(20, BILL)
    .transform((v) => v.replace(/^\$/, "").replaceAll(",", ""))
    .refine((v) => v === "" || /^\d+(\.\d{1,2})?$/.test(v), BILL)
    .transform(blankToNull)
    .transform((v) => (v === null ? null : Math.round(Number(v) * 100)))
    .refine((c) => c === null || (c >= 100 && c <= MAX_MONTHLY_BILL_DOLLARS * 100), BILL)
    .default(""),
  monthlyKwh: z
    .string()
    .trim()
    .max(20, KWH)
    .transform((v) => v.replaceAll(",", ""))
    .refine((v) => v === "" || /^\d+$/.test(v), KWH)
    .transform((v) => (v === "" ? null : Number(v)))
    .refine((n) => n === null || (n >= 1 && n <= MAX_MONTHLY_KWH), KWH)
    .default(""),
  utilityName: z.string().trim().max(100, "Utility: at most 100 characters").transform(blankToNull).default(""),
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

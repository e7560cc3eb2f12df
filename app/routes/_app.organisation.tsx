import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { requireUser } from "~/auth/guard.server";
import { Alert, Button, Card, Field, PageHeader } from "~/components/ui";
import { loadOrgSettings, saveOrgSettings } from "~/messaging/org-settings.server";
import { redirectWithToast } from "~/toast/toast.server";

export const meta: MetaFunction = () => [{ title: "Organisation — Helio" }];

// Superusers only: these values go into every message that uses {{company}}, {{companyPhone}} or {{website}}.
const schema = z.object({
  company: z.string().trim().max(200, "Company name must be at most 200 characters").default(""),
  companyPhone: z.string().trim().max(40, "Phone must be at most 40 characters").default(""),
  website: z
    .string()
    .trim()
    .max(300, "Website must be at most 300 characters")
    .refine((v) => v === "" || /^https?:\/\/\S+$/.test(v), "Website must start with http:// or https://")
    .default(""),
});

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  return { settings: await loadOrgSettings(args.context.db) };
}

export async function action(args: ActionFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  const form = await args.request.formData();
  const parsed = schema.safeParse(Object.fromEntries(["company", "companyPhone", "website"].map((k) => [k, form.get(k) ?? ""])));
  if (!parsed.success) return data({ message: parsed.error.issues[0].message }, { status: 400 });
  await saveOrgSettings(args.context.db, parsed.data, args.context.clock());
  return redirectWithToast(args.context, "/organisation", { title: "Organisation settings saved" });
}

export default function Organisation() {
  const { settings } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  return (
    <div className="space-y-6">
      <PageHeader title="Organisation" description="Values for {{company}}, {{companyPhone}} and {{website}} in every message." />
      <Card>
        <Form method="post" className="max-w-lg space-y-4">
          {actionData?.message ? <Alert tone="danger">{actionData.message}</Alert> : null}
          <Field name="company" label="Company name" hint="Used for {{company}} when the contact has no company of their own" defaultValue={settings.company ?? ""} />
          <Field name="companyPhone" label="Company phone" type="tel" hint="{{companyPhone}}" defaultValue={settings.companyPhone ?? ""} />
          <Field name="website" label="Website" type="url" hint="{{website}}" defaultValue={settings.website ?? ""} />
          <Button type="submit" disabled={pending}>
            {pending ? "Saving..." : "Save"}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

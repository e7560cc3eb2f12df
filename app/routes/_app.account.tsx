import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { KeyRound } from "lucide-react";
import { requireUser } from "~/auth/guard.server";
import { Button, Card, PageHeader } from "~/components/ui";
import { isAppError } from "~/lib/app-error";
import { clientIp } from "~/lib/request.server";
import { redirectWithToast } from "~/toast/toast.server";
import { getUserDetails, updateProfile } from "~/users/manage-users.server";
import { PersonFields } from "~/users/person-fields";
import { fieldErrors, profileSchema } from "~/users/user-schema";

export const meta: MetaFunction = () => [{ title: "My Profile — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const { user } = await getUserDetails(args.context.db, me.id);
  return { user: { firstName: user.firstName, lastName: user.lastName, email: user.email, phone: user.phone ?? "", role: user.role } };
}

type Reply = { errors: Record<string, string[]>; values: Record<string, string> };

/** Every user edits their own name, email and phone (the {{salesRep…}} variables of their messages). */
export async function action(args: ActionFunctionArgs) {
  const me = await requireUser(args);
  const form = Object.fromEntries(await args.request.formData()) as Record<string, string>;
  const parsed = profileSchema.safeParse(form);
  if (!parsed.success) return data<Reply>({ errors: fieldErrors(parsed.error), values: form }, { status: 400 });
  try {
    await updateProfile(args.context.db, me.id, parsed.data, { userId: me.id, ipAddress: clientIp(args.request) }, args.context.clock());
  } catch (err) {
    if (!isAppError(err)) throw err;
    return data<Reply>({ errors: { [err.field ?? "form"]: [err.message] }, values: form }, { status: err.status });
  }
  return redirectWithToast(args.context, "/account", { title: "Profile updated" });
}

export default function Account() {
  const { user } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const errors = reply?.errors ?? {};
  const v = reply?.values ?? user;
  return (
    <div className="max-w-2xl space-y-6">
      <PageHeader
        title="My Profile"
        description="Your name, email and phone appear in messages through {{salesRep}}, {{salesRepEmail}} and {{salesRepPhone}}."
        actions={
          <Button to="/account/password" variant="outline" icon={KeyRound}>
            Change Password
          </Button>
        }
      />
      <Card>
        <Form method="post" className="space-y-3" data-testid="profile-form">
          <PersonFields values={v} errors={errors} autoComplete />
          <Button type="submit" disabled={pending}>
            {pending ? "Saving..." : "Save Profile"}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { readSessionToken } from "~/auth/session.server";
import { Alert, Button, Card, Field, PageHeader } from "~/components/ui";
import { errorsByField } from "~/components/form-failure";
import { formAction } from "~/http/form-action.server";
import { sha256Hex } from "~/lib/crypto.server";
import { clientIp } from "~/lib/request.server";
import { redirectWithToast } from "~/http/toast.server";
import { changeOwnPassword } from "~/users/manage-users.server";
import { passwordSchema } from "~/users/user-schema";

export const meta: MetaFunction = () => [{ title: "Change Password — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  return { required: me.mustChangePassword };
}

/** The current password is required; other sessions of this user end, this one stays. */
export async function action(args: ActionFunctionArgs) {
  return formAction(
    args,
    { schema: passwordSchema, hide: ["currentPassword", "newPassword", "confirmPassword"] },
    async (input, { user: me }) => {
      const token = readSessionToken(args.request);
      await changeOwnPassword(
        args.context.db,
        me.id,
        input,
        { ipAddress: clientIp(args.request), keepSessionId: token ? await sha256Hex(token) : null },
        args.context.clock(),
      );
      return redirectWithToast(args.context, me.mustChangePassword ? "/" : "/account", { title: "Password changed" });
    },
  );
}

export default function ChangePassword() {
  const { required } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const errors = errorsByField(reply);
  return (
    <div className="max-w-md space-y-6">
      <PageHeader title="Change Password" />
      {required ? (
        <Alert tone="warning" data-testid="must-change-password">
          You signed in with a one-time password. Choose your own password to continue.
        </Alert>
      ) : null}
      <Card>
        <Form method="post" className="space-y-3" data-testid="password-form">
          {errors.form ? <Alert tone="danger">{errors.form.join(" ")}</Alert> : null}
          <Field
            label="Current Password"
            name="currentPassword"
            type="password"
            required
            autoComplete="current-password"
            errors={errors.currentPassword}
          />
          <Field
            label="New Password"
            name="newPassword"
            type="password"
            required
            minLength={10}
            autoComplete="new-password"
            hint="At least 10 characters."
            errors={errors.newPassword}
          />
          <Field
            label="Confirm New Password"
            name="confirmPassword"
            type="password"
            required
            autoComplete="new-password"
            errors={errors.confirmPassword}
          />
          <Button type="submit" disabled={pending}>
            {pending ? "Saving..." : "Change Password"}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

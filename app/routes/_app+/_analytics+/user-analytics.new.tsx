import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { Dialog, DialogActions, Field } from "~/components/ui";
import { errorsByField, isFormFailure } from "~/components/form-failure";
import { formAction } from "~/http/form-action.server";
import { createUser } from "~/users/manage-users.server";
import { newUserSchema } from "~/users/user-schema";
import { OneTimePasswordDialog } from "~/users/one-time-password";
import { PersonFields } from "~/users/person-fields";

const ROLE_OPTIONS = [
  { value: "user", label: "User" },
  { value: "superuser", label: "Superuser" },
];

export const meta: MetaFunction = () => [{ title: "Add User — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  return null;
}

/** Creates the account and answers with its one-time password — shown in this response only, never stored in clear. */
export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: newUserSchema, role: "superuser" }, async (input, { actor }) => {
    const { user, password } = await createUser(args.context.db, input, actor, args.context.clock());
    return data({ ok: true as const, email: user.email, password }, { headers: { "Cache-Control": "no-store" } });
  });
}

export default function NewUser() {
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  if (reply?.ok) {
    return <OneTimePasswordDialog title="User created" email={reply.email} password={reply.password} />;
  }
  const errors = errorsByField(reply);
  const values = isFormFailure(reply) ? (reply.values as Record<string, string | undefined>) : {};
  return (
    <Dialog
      title="Add User"
      description="The account gets a one-time password, shown once, which must be changed at first sign-in."
    >
      <Form method="post" className="space-y-3" data-testid="new-user-form">
        <PersonFields values={values} errors={errors} autoComplete={false} />
        <Field
          label="Role"
          name="role"
          as="select"
          defaultValue={values.role ?? "user"}
          errors={errors.role}
          options={ROLE_OPTIONS}
        />
        <DialogActions label="Create User" pendingLabel="Creating..." pending={pending} />
      </Form>
    </Dialog>
  );
}

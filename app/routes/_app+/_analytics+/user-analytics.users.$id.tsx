import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { requireUser } from "~/http/guard.server";
import { ActiveBadge, Alert, Badge, Button, Dialog, DialogClose, DialogFooter, Field } from "~/components/ui";
import { listOwnerChoices } from "~/contacts/load-owner-picker.server";
import { zodId } from "~/lib/ids";
import { AppError, isAppError } from "~/lib/app-error";
import { formAction } from "~/http/form-action.server";
import { intentError } from "~/http/form-schema";
import { routeId, throwAsResponse } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";
import { displayName } from "~/users/display";
import { getUserDetails, updateUser, USER_NOT_FOUND, type UserChange } from "~/users/manage-users.server";
import { OneTimePasswordDialog } from "~/users/one-time-password";
import { sendingNumber } from "~/users/user-schema";

export const meta: MetaFunction = () => [{ title: "Manage User — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args, { role: "superuser" });
  const { user } = await getUserDetails(args.context.db, routeId(args.params.id, USER_NOT_FOUND)).catch(
    throwAsResponse,
  );
  // Who could take over their contacts on deactivation (decision 044): the other active users.
  const takers = (await listOwnerChoices(args.context.db)).filter((u) => u.id !== user.id);
  return { user, me: me.id, takers };
}

const intentSchema = z.enum([
  "make-superuser",
  "make-user",
  "deactivate",
  "reactivate",
  "reset-password",
  "reset-two-factor",
  "available",
  "away",
  "sending-number",
]);
const CHANGE: Record<z.infer<typeof intentSchema>, UserChange> = {
  "make-superuser": { role: "superuser" },
  "make-user": { role: "user" },
  deactivate: { isActive: false },
  reactivate: { isActive: true },
  "reset-password": { resetPassword: true },
  "reset-two-factor": { resetTwoFactor: true },
  available: { availableForLeads: true },
  away: { availableForLeads: false },
  "sending-number": {},
};
const DONE: Record<z.infer<typeof intentSchema>, string> = {
  "make-superuser": "Role changed to superuser",
  "make-user": "Role changed to user",
  deactivate: "User deactivated",
  reactivate: "User reactivated",
  "reset-password": "Password reset",
  "reset-two-factor": "Two-factor authentication reset",
  available: "Available for new leads",
  away: "Away: no new leads",
  "sending-number": "Sending number saved",
};

export async function action(args: ActionFunctionArgs) {
  const id = () => routeId(args.params.id, USER_NOT_FOUND);
  const schema = z.object({
    intent: z.enum(intentSchema.options, intentError("Choose an action")),
    // Deactivate: who takes over their contacts ("" = nobody chosen; refused when they own any).
    handOffTo: z.preprocess((v) => (v === "" ? undefined : v), zodId("Choose a user").optional()),
    // Sending number (decision 045): "" (or absent) clears it.
    smsSender: sendingNumber.optional(),
  });
  return formAction(
    args,
    { schema, role: "superuser", before: id },
    async ({ intent, handOffTo, smsSender }, { user: me, actor }) => {
      // Your own sending number is yours to set here too: it changes neither your role nor your access.
      if (id() === me.id && intent !== "reset-password" && intent !== "sending-number") {
        throw new AppError(
          "conflict",
          "Change your own account from your profile; another superuser can change your role or status.",
        );
      }
      try {
        const { user, password } = await updateUser(
          args.context.db,
          id(),
          intent === "deactivate"
            ? { ...CHANGE[intent], handOffTo: handOffTo ?? null }
            : intent === "sending-number"
              ? { smsSender: smsSender ?? null }
              : CHANGE[intent],
          actor,
          args.context.clock(),
          { sms: args.context.sms() },
        );
        if (password)
          return data({ ok: true as const, email: user.email, password }, { headers: { "Cache-Control": "no-store" } });
      } catch (err) {
        if (isAppError(err) && err.code === "not_found") throw redirect("/user-analytics");
        throw err;
      }
      const search = new URL(args.request.url).search;
      return redirectWithToast(args.context, `/user-analytics${search}`, { title: DONE[intent] });
    },
  );
}

export default function ManageUser() {
  const { user, me, takers } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  if (reply?.ok) {
    return <OneTimePasswordDialog title="Password reset" email={reply.email} password={reply.password} />;
  }
  const act = (intent: string, label: string, variant: "outline" | "destructive" = "outline") => (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" variant={variant} disabled={pending} className="w-full">
        {label}
      </Button>
    </Form>
  );
  return (
    <Dialog title={`Manage ${displayName(user)}`} description={user.email}>
      {reply && !reply.ok ? (
        <Alert tone="danger" className="mb-4">
          {reply.message}
        </Alert>
      ) : null}
      <p className="mb-4 flex gap-2 text-sm">
        <Badge tone={user.role === "superuser" ? "accent" : "neutral"}>{user.role}</Badge>
        <ActiveBadge active={user.isActive} inactiveTone="danger" />
        {user.twoFactorEnabled ? <Badge tone="success">2FA on</Badge> : null}
        {user.availableForLeads ? <Badge tone="success">Takes new leads</Badge> : <Badge tone="neutral">Away</Badge>}
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        {user.role === "superuser" ? act("make-user", "Make standard user") : act("make-superuser", "Make superuser")}
        {user.isActive ? null : act("reactivate", "Reactivate")}
        {user.availableForLeads
          ? act("away", "Mark away (no new leads)")
          : act("available", "Mark available for leads")}
        {act("reset-password", "Reset password")}
        {user.twoFactorEnabled && user.id !== me ? act("reset-two-factor", "Reset two-factor") : null}
      </div>
      <Form method="post" className="mt-4 grid gap-2 border-t border-border pt-4">
        <input type="hidden" name="intent" value="sending-number" />
        <Field
          name="smsSender"
          label="Sending number"
          defaultValue={user.smsSender ?? ""}
          placeholder="+15551234567 or MG…"
          autoComplete="off"
          maxLength={40}
          hint="Their contacts are texted from this Twilio number or Messaging Service, and replies to it come to them. Empty: the default number."
          errors={reply && !reply.ok && reply.field === "smsSender" ? [reply.message] : null}
        />
        <Button type="submit" disabled={pending} className="w-full">
          Save sending number
        </Button>
      </Form>
      {user.isActive ? (
        <Form method="post" className="mt-4 grid gap-2 border-t border-border pt-4">
          <input type="hidden" name="intent" value="deactivate" />
          <Field
            as="select"
            name="handOffTo"
            label="Hand their contacts to"
            placeholder="Choose a user"
            hint="Every contact they own moves to this user when they are deactivated."
            errors={reply && !reply.ok && reply.field === "handOffTo" ? [reply.message] : null}
            options={takers.map((t) => ({ value: t.id, label: `${displayName(t)} (${t.email})` }))}
          />
          <Button type="submit" variant="destructive" disabled={pending} className="w-full">
            Deactivate
          </Button>
        </Form>
      ) : null}
      <p className="mt-3 text-xs text-fg-muted">
        Deactivating, resetting a password or resetting two-factor (a lost phone) signs the user out everywhere at once.
      </p>
      <DialogFooter>
        <DialogClose>Close</DialogClose>
      </DialogFooter>
    </Dialog>
  );
}

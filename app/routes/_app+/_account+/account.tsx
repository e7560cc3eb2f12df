import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { KeyRound, ShieldCheck } from "lucide-react";
import { z } from "zod";
import { requireUser } from "~/http/guard.server";
import { listSessions } from "~/auth/list-sessions.server";
import { revokeOtherSessions } from "~/auth/revoke-other-sessions.server";
import { revokeSession } from "~/auth/revoke-session.server";
import { Badge, Button, Card, PageHeader, Table, TBody, Td, THead } from "~/components/ui";
import { errorsByField, isFormFailure } from "~/components/form-failure";
import { formAction } from "~/http/form-action.server";
import { intentError, UNKNOWN_ACTION, withDefaults } from "~/http/form-schema";
import { redirectWithToast } from "~/http/toast.server";
import { getUserDetails, setLeadAvailability, updateProfile } from "~/users/manage-users.server";
import { PersonFields } from "~/users/person-fields";
import { loadPushSettings } from "~/push/load-push-settings.server";
import { PushSettingsCard } from "~/push/push-settings-card";
import { profileSchema } from "~/users/user-schema";

export const meta: MetaFunction = () => [{ title: "My Profile — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const [{ user }, sessions, push] = await Promise.all([
    getUserDetails(args.context.db, me.id),
    listSessions(args.context.db, me.id, me.sessionId, args.context.clock()),
    loadPushSettings(args.context.db, args.context.push(), me.id),
  ]);
  return {
    user: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phone: user.phone ?? "",
      role: user.role,
      availableForLeads: user.availableForLeads,
    },
    twoFactorEnabled: me.twoFactorEnabled,
    sessions,
    push,
  };
}

// The profile form posts no intent; the session buttons post theirs.
const accountForm = withDefaults(
  { intent: "profile" },
  z.discriminatedUnion(
    "intent",
    [
      profileSchema.extend({ intent: z.literal("profile") }),
      z.object({ intent: z.literal("revoke-session"), sessionId: z.string().regex(/^[0-9a-f]{64}$/, UNKNOWN_ACTION) }),
      z.object({ intent: z.literal("revoke-others") }),
      // Round-robin takes me for new leads, or not (decision 044): the button posts the value it sets.
      z.object({ intent: z.literal("lead-availability"), available: z.enum(["on", "off"], intentError()) }),
    ],
    intentError(),
  ),
);

/**
 * Every user edits their own name, email and phone (the {{salesRep…}} variables of their messages), and signs out
 * their other sessions ("Your sessions": one, or all but this one).
 */
export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: accountForm }, async (input, { user: me, actor }) => {
    const now = args.context.clock();
    if (input.intent === "revoke-others") {
      const n = await revokeOtherSessions(args.context.db, me.id, me.sessionId, actor, now);
      return redirectWithToast(args.context, "/account", {
        title: n === 1 ? "1 other session signed out" : `${n} other sessions signed out`,
      });
    }
    if (input.intent === "lead-availability") {
      await setLeadAvailability(args.context.db, me.id, input.available === "on", actor, now);
      return redirectWithToast(args.context, "/account", {
        title: input.available === "on" ? "You take new leads" : "You are away: no new leads",
      });
    }
    if (input.intent === "revoke-session") {
      await revokeSession(args.context.db, me.id, input.sessionId, actor, now);
      // Revoking this very session is signing out: the next request goes to the login screen.
      return redirectWithToast(args.context, input.sessionId === me.sessionId ? "/login" : "/account", {
        title: "Session signed out",
      });
    }
    const { intent: _profile, ...profile } = input;
    await updateProfile(args.context.db, me.id, profile, actor, now);
    return redirectWithToast(args.context, "/account", { title: "Profile updated" });
  });
}

const SESSION_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (iso: string) => SESSION_TIME.format(new Date(iso)) + " UTC";

export default function Account() {
  const { user, twoFactorEnabled, sessions, push } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const errors = errorsByField(reply);
  const v = isFormFailure(reply) ? (reply.values as Record<string, string | undefined>) : user;
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
      <Card
        title="New leads"
        description="While you are available, new leads without an owner are shared out to you in turn."
      >
        <Form method="post" className="flex flex-wrap items-center gap-3" data-testid="lead-availability">
          <input type="hidden" name="intent" value="lead-availability" />
          <input type="hidden" name="available" value={user.availableForLeads ? "off" : "on"} />
          {user.availableForLeads ? <Badge tone="success">Available</Badge> : <Badge tone="neutral">Away</Badge>}
          <Button type="submit" variant="outline" disabled={pending}>
            {user.availableForLeads ? "Mark me away" : "Mark me available"}
          </Button>
        </Form>
      </Card>
      <PushSettingsCard push={push} />
      <Card
        title="Two-factor authentication"
        description="A 6-digit code from an authenticator app (Google Authenticator, 1Password, Authy…) after your password."
        actions={
          <Button to="/account/two-factor" variant="outline" icon={ShieldCheck}>
            {twoFactorEnabled ? "Manage" : "Set up"}
          </Button>
        }
      >
        <p className="text-sm" data-testid="two-factor-status">
          {twoFactorEnabled ? <Badge tone="success">On</Badge> : <Badge tone="neutral">Off</Badge>}
        </p>
      </Card>
      <Card
        title="Your sessions"
        description="Where you are signed in. Sessions end after 30 minutes without activity and 12 hours after sign-in."
      >
        {errors.form ? <p className="mb-2 text-sm text-danger">{errors.form.join(" ")}</p> : null}
        <Table data-testid="sessions">
          <THead columns={["Device", "IP address", "Signed in", "Last seen", ""]} />
          <TBody>
            {sessions.map((s) => (
              <tr key={s.id} data-testid={s.current ? "session-current" : "session"}>
                <Td>
                  {s.device} {s.current ? <Badge tone="info">This device</Badge> : null}
                </Td>
                <Td>{s.ipAddress ?? "—"}</Td>
                <Td>{when(s.createdAt)}</Td>
                <Td>{when(s.lastSeenAt)}</Td>
                <Td>
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke-session" />
                    <input type="hidden" name="sessionId" value={s.id} />
                    <Button type="submit" size="sm" variant="outline">
                      {s.current ? "Sign out" : "Revoke"}
                    </Button>
                  </Form>
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
        {sessions.length > 1 ? (
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="revoke-others" />
            <Button type="submit" variant="outline" data-testid="revoke-others">
              Sign out all other sessions
            </Button>
          </Form>
        ) : null}
      </Card>
    </div>
  );
}

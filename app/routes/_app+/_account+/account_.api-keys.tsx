import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { KeyRound } from "lucide-react";
import { z } from "zod";
import { API_KEY_SCOPES, EXPIRY_CHOICES, SCOPE_LABELS } from "~/auth/api-key-scopes";
import { createApiKey, listApiKeys, revokeApiKey } from "~/auth/manage-api-keys.server";
import { failureByIntent, fieldErrorsOf, fieldProps, formErrorOf, postedValues } from "~/components/form-failure";
import {
  Badge,
  CheckboxList,
  CreateFormCard,
  Field,
  PageHeader,
  PostButton,
  RowsCard,
  SecretOnce,
} from "~/components/ui";
import { formAction } from "~/http/form-action.server";
// Schema helpers from the module the browser bundle keeps: a .server module is empty there (decision 030).
import { asList, intentError, withDefaults } from "~/http/form-schema";
import { requireUser } from "~/http/guard.server";
import { redirectWithToast } from "~/http/toast.server";
import { zodId } from "~/lib/ids";

export const meta: MetaFunction = () => [{ title: "API keys — Helio" }];

/** Settings → API keys (decision 035): your keys; a superuser sees everyone's, with the owner. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const keys = await listApiKeys(args.context.db, user);
  return {
    isSuperuser: user.role === "superuser",
    keys: keys.map((k) => ({
      ...k,
      expiresAt: k.expiresAt?.toISOString() ?? null,
      revokedAt: k.revokedAt?.toISOString() ?? null,
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      createdAt: k.createdAt.toISOString(),
      mine: k.userId === user.id,
    })),
  };
}

const keyForm = withDefaults(
  { name: "", expiresInDays: "90" },
  z.discriminatedUnion(
    "intent",
    [
      z.object({
        intent: z.literal("create"),
        name: z.string().trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
        scopes: asList(
          z.array(z.enum(API_KEY_SCOPES, { message: "Unknown scope" })).min(1, "Choose at least one scope"),
        ),
        expiresInDays: z.coerce.number().refine((d) => EXPIRY_CHOICES.some((c) => c.days === d), "Choose an expiry"),
      }),
      z.object({ intent: z.literal("revoke"), id: zodId("API key not found") }),
    ],
    intentError(),
  ),
);

export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: keyForm, title: "Error saving API key" }, async (input, { user, actor }) => {
    const { db } = args.context;
    const owner = { ...actor, role: user.role };
    const now = args.context.clock();
    if (input.intent === "revoke") {
      await revokeApiKey(db, input.id, owner, now);
      return redirectWithToast(args.context, "/account/api-keys", { title: "API key revoked" });
    }
    // The secret is answered once, in this response (not a redirect), so it shows with JavaScript off too.
    const created = await createApiKey(db, input, owner, now);
    return { ok: true as const, intent: "create", created };
  });
}

const when = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 16).replace("T", " ") + " UTC" : "");

export default function ApiKeys() {
  const { keys, isSuperuser } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const created = reply && "created" in reply ? reply.created : null;
  const { form: creating, other: rowFailure } = failureByIntent(reply, "create");
  const formError = formErrorOf(creating, ["name", "scopes", "expiresInDays"]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description={
          isSuperuser
            ? "Keys let lead vendors, CRMs and scripts call /api as the key's owner. You see every user's keys."
            : "Keys let lead vendors, CRMs and scripts call /api as you, within the scopes you choose."
        }
      />
      {created ? (
        <SecretOnce
          data-testid="api-key-secret"
          title={`Key “${created.name}” created. Copy it now: it is not shown again.`}
          secret={created.secret}
        />
      ) : null}
      <CreateFormCard
        title="New key"
        data-testid="api-key-form"
        error={formError}
        submitLabel="Create key"
        pendingLabel="Creating..."
        pending={pending}
      >
        <Field
          label="Name"
          required
          maxLength={100}
          hint="Who uses it, e.g. EnergySage or Zapier"
          {...fieldProps(creating, "name")}
        />
        <CheckboxList
          name="scopes"
          label="Scopes"
          items={API_KEY_SCOPES.map((s) => ({ value: s, label: SCOPE_LABELS[s] }))}
          checked={new Set(postedValues(creating, "scopes", ["leads"]))}
          errors={fieldErrorsOf(creating, "scopes")}
        />
        <Field
          as="select"
          label="Expires after"
          options={EXPIRY_CHOICES.map((c) => ({ value: String(c.days), label: c.label }))}
          {...fieldProps(creating, "expiresInDays", "90")}
        />
      </CreateFormCard>
      <RowsCard
        title="Keys"
        error={rowFailure?.message}
        items={keys}
        data-testid="api-keys"
        itemTestId="api-key"
        empty={{ icon: KeyRound, title: "No API keys yet", description: "Create one above." }}
        actions={(k) =>
          k.revokedAt ? null : (
            <PostButton intent="revoke" fields={{ id: k.id }} variant="destructive" disabled={pending} of={k.name}>
              Revoke
            </PostButton>
          )
        }
      >
        {(k) => (
          <>
            <p className="font-medium break-words">{k.name}</p>
            <p className="text-sm break-all text-fg-muted">
              <code>{k.prefix}…</code> · {k.scopes.join(", ")}
              {isSuperuser && !k.mine ? ` · ${k.ownerEmail}` : ""}
            </p>
            <p className="text-xs text-fg-muted">
              Created {when(k.createdAt)}
              {k.expiresAt ? ` · expires ${when(k.expiresAt)}` : " · never expires"}
              {k.lastUsedAt ? ` · last used ${when(k.lastUsedAt)}` : " · never used"}
            </p>
            {k.revokedAt ? <Badge tone="danger">Revoked</Badge> : null}
          </>
        )}
      </RowsCard>
    </div>
  );
}

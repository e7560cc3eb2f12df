import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { useFailureToast, useToast } from "~/components/toaster";
import { Alert, DialogActions, Field } from "~/components/ui";
import { useHydrated } from "~/lib/use-hydrated";
import { CUSTOM_FIELD_VARIABLES } from "./custom-fields";
import { PLATFORM_VARIABLES } from "~/contacts/variables";
import { isFormFailure } from "~/components/form-failure";
import {
  contactSchema,
  missingRequiredField,
  REQUIRED_CONTACT_FIELDS,
  REQUIRED_FIELDS_MISSING,
  type ContactInput,
} from "./contact-schema";

type Failure = { title: string; description: string };

// SPEC §8: a failed save's toast ends with a retry sentence.
const RETRY = "Please try again.";

/**
 * The action's FormFailure as this form shows it: a form that did not validate shows its field errors (and SPEC §5's
 * toast and sentence when a required field is missing); a save the domain refused shows its message above the
 * fields and in the toast, followed by the retry sentence.
 */
function contactReply(reply: unknown): { result: SubmissionResult<string[]>; failure: Failure | null } | undefined {
  if (!isFormFailure(reply)) return undefined;
  const initialValue = reply.values as SubmissionResult["initialValue"];
  if (reply.invalid) {
    const missing = missingRequiredField(reply.fieldErrors);
    return {
      result: {
        status: "error",
        initialValue,
        error: { ...reply.fieldErrors, "": missing ? [REQUIRED_FIELDS_MISSING.description] : [] },
      },
      failure: missing ? { ...REQUIRED_FIELDS_MISSING } : null,
    };
  }
  return {
    result: { status: "error", initialValue, error: { "": [reply.message] } },
    failure: { title: reply.title ?? "Error", description: `${reply.message.replace(/\.$/, "")}. ${RETRY}` },
  };
}

const FIELDS: {
  name: keyof ContactInput;
  label: string;
  type?: "email" | "tel";
  autoComplete?: string;
  wide?: boolean;
}[] = [
  { name: "firstName", label: "First Name", autoComplete: "given-name" },
  { name: "lastName", label: "Last Name", autoComplete: "family-name" },
  { name: "phone", label: "Phone", type: "tel", autoComplete: "tel" },
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  { name: "company", label: "Company", autoComplete: "organization", wide: true },
  { name: "address", label: "Address", autoComplete: "street-address", wide: true },
  { name: "city", label: "City", autoComplete: "address-level2" },
  { name: "state", label: "State", autoComplete: "address-level1" },
  { name: "zipCode", label: "ZIP Code", autoComplete: "postal-code" },
];

/** The add/edit contact form: the same zod schema validates here (with JS) and in the action (always). */
export function ContactForm({
  id,
  actionData,
  defaultValue,
  submitLabel,
}: {
  id: string;
  /** The action's reply: a FormFailure, or nothing yet. */
  actionData: unknown;
  defaultValue?: Partial<Record<Exclude<keyof ContactInput, "customFields">, string>> & {
    customFields?: Record<string, string>;
  };
  submitLabel: string;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const toast = useToast();
  const pending = navigation.state === "submitting";
  // One object per reply: conform applies a new lastResult each time it changes.
  const reply = useMemo(() => contactReply(actionData), [actionData]);
  const [form, fields] = useForm({
    id,
    lastResult: reply?.result,
    defaultValue,
    constraint: getZodConstraint(contactSchema),
    // Without JS the browser's own `required`/`type=email` checks apply; once hydrated conform takes over.
    defaultNoValidate: false,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
  });
  const formProps = getFormProps(form);
  const custom = fields.customFields.getFieldset();

  useFailureToast(actionData, reply?.failure);

  const failure = !hydrated ? reply?.failure : null;
  const formErrors = form.errors ?? [];

  return (
    <Form
      method="post"
      {...formProps}
      onSubmit={(event) => {
        // SPEC §5: a missing required field is a destructive toast (with JS); conform then shows the field errors.
        const fd = new FormData(event.currentTarget);
        if (REQUIRED_CONTACT_FIELDS.some((f) => !String(fd.get(f) ?? "").trim())) {
          toast({ ...REQUIRED_FIELDS_MISSING, variant: "destructive" });
        }
        formProps.onSubmit(event);
      }}
      className="space-y-4"
    >
      {failure || formErrors.length ? (
        <Alert tone="danger" id={form.errorId} data-testid="form-error">
          {failure ? <strong className="block">{failure.title}</strong> : null}
          {formErrors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </Alert>
      ) : null}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {FIELDS.map((f) => (
          <Field
            key={f.name}
            label={f.label}
            meta={fields[f.name]}
            type={f.type ?? "text"}
            autoComplete={f.autoComplete}
            className={f.wide ? "sm:col-span-2" : undefined}
          />
        ))}
      </div>
      <details
        className="rounded-md border border-border p-3"
        open={CUSTOM_FIELD_VARIABLES.some((n) => defaultValue?.customFields?.[n])}
      >
        <summary className="cursor-pointer text-sm font-medium">Solar and appointment details</summary>
        <p className="mt-1 text-xs text-fg-subtle">
          Fill the {"{{variables}}"} of the same name in messages to this contact.
        </p>
        <div className="mt-3 grid grid-cols-1 gap-4 sm:grid-cols-2">
          {CUSTOM_FIELD_VARIABLES.map((name) => (
            <Field
              key={name}
              label={PLATFORM_VARIABLES.find((v) => v.name === name)?.description ?? name}
              hint={`{{${name}}}`}
              meta={custom[name]}
              placeholder={PLATFORM_VARIABLES.find((v) => v.name === name)?.example}
            />
          ))}
        </div>
      </details>
      <p className="text-xs text-fg-subtle">
        US numbers are saved as +1XXXXXXXXXX. Numbers that cannot be a US number are kept but marked not sendable.
      </p>
      <DialogActions label={submitLabel} pendingLabel="Saving..." pending={pending} />
    </Form>
  );
}

import { Alert, Field } from "~/components/ui";

type Values = { firstName?: string | null; lastName?: string | null; email?: string | null; phone?: string | null };

/**
 * The name, email and phone of a person's account with the form-level error above them: the same fields for one's
 * own profile (`autoComplete` on) and for an account an admin creates (off, so the browser never fills in the
 * admin's own details).
 */
export function PersonFields({
  values,
  errors,
  autoComplete,
}: {
  values: Values;
  errors: Partial<Record<string, string[]>>;
  autoComplete: boolean;
}) {
  // One line a field: each shows its own value and errors; autofill is on only for one's own profile.
  const field = (name: keyof Values, label: string, autofill: string, more: { type?: string; required?: boolean }) => (
    <Field
      label={label}
      name={name}
      {...more}
      defaultValue={values[name] ?? undefined}
      errors={errors[name]}
      autoComplete={autoComplete ? autofill : "off"}
    />
  );
  return (
    <>
      {errors.form ? <Alert tone="danger">{errors.form.join(" ")}</Alert> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        {field("firstName", "First Name", "given-name", { required: true })}
        {field("lastName", "Last Name", "family-name", { required: true })}
      </div>
      {field("email", "Email", "email", { type: "email", required: true })}
      {field("phone", "Phone", "tel", { type: "tel" })}
    </>
  );
}

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
  const ac = (hint: string) => (autoComplete ? hint : "off");
  return (
    <>
      {errors.form ? <Alert tone="danger">{errors.form.join(" ")}</Alert> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label="First Name"
          name="firstName"
          required
          defaultValue={values.firstName ?? undefined}
          errors={errors.firstName}
          autoComplete={ac("given-name")}
        />
        <Field
          label="Last Name"
          name="lastName"
          required
          defaultValue={values.lastName ?? undefined}
          errors={errors.lastName}
          autoComplete={ac("family-name")}
        />
      </div>
      <Field
        label="Email"
        name="email"
        type="email"
        required
        defaultValue={values.email ?? undefined}
        errors={errors.email}
        autoComplete={ac("email")}
      />
      <Field
        label="Phone"
        name="phone"
        type="tel"
        defaultValue={values.phone ?? undefined}
        errors={errors.phone}
        autoComplete={ac("tel")}
      />
    </>
  );
}

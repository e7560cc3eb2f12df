import type { FieldMetadata } from "@conform-to/react";
import {
  forwardRef,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { cx, focusRing } from "./cx";

const control =
  "w-full rounded-md border border-input bg-surface px-3 py-2 text-sm text-fg placeholder:text-fg-subtle focus:border-primary aria-invalid:border-danger disabled:opacity-60";

/** A bare text input in the kit's style (use Field for a labelled one). */
export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  const file = props.type === "file";
  return (
    <input
      ref={ref}
      {...props}
      className={cx(
        file
          ? "block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-2 file:text-fg"
          : control,
        focusRing,
        className,
      )}
    />
  );
});

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select(
  { className, ...props },
  ref,
) {
  return <select ref={ref} {...props} className={cx(control, "px-2", focusRing, className)} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className, ...props },
  ref,
) {
  return <textarea ref={ref} {...props} className={cx(control, focusRing, className)} />;
});

type Common = {
  label: ReactNode;
  /** Visually hidden label (still the accessible name). */
  hideLabel?: boolean;
  /** Label beside the control instead of above it. */
  inline?: boolean;
  hint?: ReactNode;
  /** conform field metadata: name, id, required, default value, errors and aria wiring come from it. */
  meta?: Meta;
  /** Errors for a plain (non-conform) field. */
  errors?: string[] | null;
  className?: string;
};
type InputFieldProps = Common & { as?: "input" } & Omit<InputHTMLAttributes<HTMLInputElement>, "className">;
/** A select's choices: a value that is its own label, or a value and its label. */
export type SelectOption = string | { value: string | number; label: ReactNode };
type SelectFieldProps = Common & {
  as: "select";
  /** Rendered as `<option>`s (after `placeholder`, before any children). */
  options?: readonly SelectOption[];
  /** A first option with the empty value ("Choose…", "None"). */
  placeholder?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, "className">;
type TextareaFieldProps = Common & { as: "textarea" } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "className">;
export type FieldProps = InputFieldProps | SelectFieldProps | TextareaFieldProps;

type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;

/**
 * What conform's getInputProps / getSelectProps / getTextareaProps (v1) give a control, minus the aria attributes
 * (Field sets those) and the key. Written out here because importing them pulls conform's whole form runtime into
 * every page that shows a Field, the login screen included, even where no conform form is used (issue 15's bytes).
 */
function conformProps(meta: Meta, as: "input" | "select" | "textarea", type?: string): Record<string, unknown> {
  const props: Record<string, unknown> = {
    id: meta.id,
    name: meta.name,
    form: meta.formId,
    required: meta.required || undefined,
  };
  const initial = meta.initialValue;
  if (as === "select") {
    props.multiple = meta.multiple;
    props.defaultValue = Array.isArray(initial) ? initial.map((item) => `${item ?? ""}`) : initial?.toString();
  } else if (as === "textarea") {
    Object.assign(props, { minLength: meta.minLength, maxLength: meta.maxLength, defaultValue: initial?.toString() });
  } else {
    const { minLength, maxLength, min, max, step, pattern, multiple, accept } = meta as Meta & { accept?: string };
    Object.assign(props, { type, minLength, maxLength, min, max, step, pattern, multiple, accept });
    if (type === "checkbox" || type === "radio") {
      props.value = "on";
      props.defaultChecked = Array.isArray(initial) ? initial.includes(undefined) : initial === "on";
    } else if (typeof initial === "string") props.defaultValue = initial;
  }
  for (const k of Object.keys(props)) if (props[k] === undefined) delete props[k];
  return props;
}

function withoutAs<T extends { as?: unknown }>(props: T): Omit<T, "as"> {
  const copy = { ...props };
  delete copy.as;
  return copy;
}

/**
 * A labelled form control with hint and errors. With `meta` (conform) or `errors` (plain), invalid controls get
 * `aria-invalid` and `aria-describedby` pointing at the error and hint; the server renders all of it, so errors show
 * without JS too.
 */
export function Field(props: FieldProps) {
  const { label, hideLabel, inline, hint, meta, errors: plainErrors, className, ...rest } = props;
  const autoId = useId();
  const id = meta?.id ?? rest.id ?? autoId;
  const hintId = hint ? `${id}-hint` : undefined;
  const errors = meta ? meta.errors : plainErrors;
  const errorId = meta?.errorId ?? `${id}-error`;
  const invalid = Boolean(errors?.length);
  const describedBy = [invalid ? errorId : null, hintId].filter(Boolean).join(" ") || undefined;
  const required = meta?.required ?? rest.required;

  const aria = { id, "aria-invalid": invalid || undefined, "aria-describedby": describedBy };
  let controlEl: ReactNode;
  if (rest.as === "select") {
    const conform = meta ? conformProps(meta, "select") : {};
    const { options, placeholder, children, ...select } = withoutAs(rest);
    controlEl = (
      <Select {...conform} {...select} {...aria}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options?.map((o) =>
          typeof o === "string" ? (
            <option key={o}>{o}</option>
          ) : (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ),
        )}
        {children}
      </Select>
    );
  } else if (rest.as === "textarea") {
    const conform = meta ? conformProps(meta, "textarea") : {};
    controlEl = <Textarea {...conform} {...withoutAs(rest)} {...aria} />;
  } else {
    const conform = meta ? conformProps(meta, "input", rest.type ?? "text") : {};
    controlEl = <Input {...conform} {...withoutAs(rest)} {...aria} />;
  }

  return (
    <div className={cx(inline ? "flex items-center gap-2" : undefined, className)}>
      <label
        htmlFor={id}
        className={cx(hideLabel ? "sr-only" : inline ? "text-sm text-fg-muted" : "mb-1 block text-sm font-medium")}
      >
        {label}
        {required && !hideLabel && !inline ? (
          <span aria-hidden="true" className="text-danger">
            {" "}
            *
          </span>
        ) : null}
      </label>
      {controlEl}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-fg-subtle">
          {hint}
        </p>
      ) : null}
      {invalid ? (
        <p id={errorId} className="mt-1 text-xs text-danger-text">
          {errors!.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

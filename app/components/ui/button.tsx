import { Link, type LinkProps } from "@remix-run/react";
import type { LucideIcon } from "lucide-react";
import { forwardRef, type AnchorHTMLAttributes, type ButtonHTMLAttributes, type ReactNode, type Ref } from "react";
import { cx, focusRing } from "./cx";

export type ButtonVariant = "primary" | "secondary" | "outline" | "ghost" | "destructive";
export type ButtonSize = "sm" | "md" | "lg" | "icon";

const VARIANT: Record<ButtonVariant, string> = {
  primary: "bg-primary font-semibold text-primary-fg hover:bg-primary-hover",
  secondary: "border border-input bg-surface text-fg hover:bg-canvas",
  outline: "border border-input text-fg hover:bg-canvas",
  ghost: "text-fg-muted hover:bg-muted hover:text-fg",
  destructive: "bg-danger font-semibold text-danger-fg hover:bg-danger-hover",
};
const SIZE: Record<ButtonSize, string> = {
  sm: "gap-1.5 px-2.5 py-1.5 text-xs",
  md: "gap-2 px-4 py-2 text-sm",
  lg: "gap-2 px-5 py-2.5 text-base",
  icon: "p-2 text-sm",
};

/** The classes of a button, for the rare element that must look like one but is neither <button> nor a link. */
export function buttonClass({
  variant = "primary",
  size = "md",
  wrap = false,
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; wrap?: boolean; className?: string } = {}) {
  return cx(
    // cx does not merge classes, so a wrapping button must not also carry whitespace-nowrap (the later rule wins).
    wrap ? "whitespace-normal text-left" : "whitespace-nowrap",
    "inline-flex items-center justify-center rounded-md transition-colors disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:pointer-events-none aria-disabled:opacity-60",
    focusRing,
    VARIANT[variant],
    SIZE[size],
    className,
  );
}

type Own = {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** A lucide icon shown before the label (decorative: the label or aria-label names the button). */
  icon?: LucideIcon;
  /** A long label (a prompt, a list entry) wraps onto more lines instead of widening the screen. */
  wrap?: boolean;
  children?: ReactNode;
};
export type ButtonProps = Own & ButtonHTMLAttributes<HTMLButtonElement> & { to?: undefined };
export type ButtonLinkProps = Own & Omit<LinkProps, "children"> & { to: LinkProps["to"] };

/**
 * A button, or with `to` a Remix <Link> that looks like one (navigation stays a link, so it works without JS and
 * opens in a new tab). `type` defaults to "button" so only an explicit `type="submit"` submits a form.
 */
export const Button = forwardRef<HTMLButtonElement | HTMLAnchorElement, ButtonProps | ButtonLinkProps>(
  function Button(props, ref) {
    const { variant, size, wrap, icon: Icon, className, children, ...rest } = props;
    const classes = buttonClass({ variant, size, wrap, className });
    const content = (
      <>
        {Icon ? <Icon aria-hidden="true" className={size === "sm" ? "size-3.5" : "size-4"} /> : null}
        {children}
      </>
    );
    if (rest.to !== undefined) {
      return (
        <Link ref={ref as Ref<HTMLAnchorElement>} {...(rest as LinkProps)} className={classes}>
          {content}
        </Link>
      );
    }
    const { type = "button", ...buttonProps } = rest as ButtonHTMLAttributes<HTMLButtonElement>;
    return (
      <button ref={ref as Ref<HTMLButtonElement>} type={type} {...buttonProps} className={classes}>
        {content}
      </button>
    );
  },
);

type TextLinkProps = { tone?: "primary" | "danger" | "muted"; className?: string; children: ReactNode } & (
  | (Omit<LinkProps, "className" | "children"> & { href?: undefined })
  | (Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "className" | "children"> & { href: string; to?: undefined })
);
const LINK_TONE = { primary: "text-primary-text", danger: "text-danger-text", muted: "text-fg-muted" };

/** An inline text link: a Remix <Link> with `to`, a plain <a> with `href` (downloads, documents). */
export function TextLink({ tone = "primary", className, children, ...props }: TextLinkProps) {
  const classes = cx("rounded-sm underline-offset-2 hover:underline", focusRing, LINK_TONE[tone], className);
  if (props.href !== undefined)
    return (
      <a {...(props as AnchorHTMLAttributes<HTMLAnchorElement>)} className={classes}>
        {children}
      </a>
    );
  return (
    <Link {...(props as LinkProps)} className={classes}>
      {children}
    </Link>
  );
}

import type { InputHTMLAttributes } from "react";
import { Field } from "~/ui/field";

/**
 * The sign-in pages' one email field (the login page's first step, the failed login link's request for a new
 * one): the same label, name, type and autocomplete everywhere, so a password manager fills it on each.
 */
export function EmailField({
  errors,
  ...rest
}: { errors?: string[] | null } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "type">) {
  return (
    <Field
      label="Email"
      id="email"
      name="email"
      type="email"
      autoComplete="username"
      required
      errors={errors}
      {...rest}
    />
  );
}

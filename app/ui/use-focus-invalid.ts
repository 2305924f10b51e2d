import { useEffect, type RefObject } from "react";

/** After a failed submission, moves the focus to the first invalid field of the form. */
export function useFocusInvalid(formRef: RefObject<HTMLFormElement | null>, result: unknown) {
  useEffect(() => {
    if (!result) return;
    const invalid = formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']");
    // A group (a fieldset of radios) is not focusable itself: its first control is.
    const target = invalid?.matches("fieldset, [role='radiogroup'], [role='group']")
      ? invalid.querySelector<HTMLElement>("input:not([type='hidden']), select, textarea, button")
      : invalid;
    target?.focus();
  }, [formRef, result]);
}

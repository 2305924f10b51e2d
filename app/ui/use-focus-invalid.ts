import { useEffect, type RefObject } from "react";

/** After a failed submission, moves the focus to the first invalid field of the form. */
export function useFocusInvalid(formRef: RefObject<HTMLFormElement | null>, result: unknown) {
  useEffect(() => {
    if (!result) return;
    const invalid = formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']");
    invalid?.focus();
  }, [formRef, result]);
}

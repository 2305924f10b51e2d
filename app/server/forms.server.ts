import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { z } from "zod";
import { parseId } from "~/lib/ids";

/** The options of Conform's `submission.reply()` (hide a password, add a form-level error). */
type ReplyOptions = { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] };
type Replyable = { reply(options?: ReplyOptions): SubmissionResult<string[]> };

/**
 * The one answer to a form that did not parse (docs/architecture.md, "Forms"): 400, with
 * `submission.reply()` as `lastResult` for the form, beside whatever else the page needs to place it.
 * An unknown intent is answered the same way: every action's schema is a discriminated union on `intent`,
 * so an intent it does not name fails the parse like any invalid field (the reply names the `intent` field).
 */
export function invalidSubmission<Extra extends object = object>(
  submission: Replyable,
  extra?: Extra,
  options?: ReplyOptions,
) {
  return data({ ...(extra as Extra), lastResult: submission.reply(options) }, { status: 400 });
}

/**
 * A database id posted by a form: the one id rule of every page (`parseId`, app/lib/ids.ts: 1 to 12 digits, a
 * positive safe integer). A string schema, so Conform leaves the text as typed for `parseId` to judge.
 */
export const formId = z
  .string({ required_error: "Required", invalid_type_error: "Not an id" })
  .transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Not an id" });
      return z.NEVER;
    }
    return id;
  });

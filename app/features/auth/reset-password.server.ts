import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { isApiError } from "~/server/upstream/api-error";
import { parseForm } from "~/server/forms.server";
import { retryAfterText } from "~/server/ops/rate-limit.server";
import { getPublicApi } from "~/server/upstream/upstream.server";
import { resetPasswordSchema, validationReply } from "./auth";
import { AUTH_MESSAGES } from "./messages";
import { signInRefusalOf } from "./sign-in.server";

/*
 * The reset password page's server side (app/routes/reset-password.tsx): the emailed reset link's token is
 * checked by the loader, and the new password set by the action.
 */

export const validateResetToken = (api: ApiClient, token: string) =>
  api.get("/user/password/token/validate", { query: { token } });

const resetAnswer = z.object({ message: z.string() });
export const resetPassword = (api: ApiClient, token: string, password: string, confirmPassword: string) =>
  api.post("/user/password/reset", {
    body: { token, password, confirmPassword },
    schema: resetAnswer,
  });

export const parseResetPassword = (form: FormData) => parseForm(form, { schema: resetPasswordSchema });

export async function resetPasswordLoader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) throw redirect("/");
  try {
    await validateResetToken(getPublicApi(request), token.slice(0, 200));
    return data({ token, tokenError: null as string | null }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (!isApiError(error)) throw error;
    // The link of somebody who may not sign in here (rule sign-in-by-client-type) sets no password.
    const refusal = signInRefusalOf(error);
    if (refusal === "mycor") throw redirect("/mycor", { headers: { "Cache-Control": "no-store" } });
    if (refusal === "resi")
      return data({ token, tokenError: AUTH_MESSAGES.resi }, { headers: { "Cache-Control": "no-store" } });
    return data({ token, tokenError: error.message }, { headers: { "Cache-Control": "no-store" } });
  }
}

export async function resetPasswordAction({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  if (!token) throw redirect("/");
  const submission = parseResetPassword(form);
  if (submission.status !== "success") {
    return data(
      { lastResult: submission.reply({ hideFields: ["password", "confirmPassword"] }), done: false },
      { status: 400 },
    );
  }
  if (context.signInLimited) {
    const s = context.signInLimited.retryAfterSeconds;
    return data(
      {
        lastResult: submission.reply({
          formErrors: [retryAfterText(s)],
          hideFields: ["password", "confirmPassword"],
        }),
        done: false,
      },
      { status: 429, headers: { "Retry-After": String(s) } },
    );
  }
  try {
    await resetPassword(
      getPublicApi(request),
      token,
      submission.value.password,
      submission.value.confirmPassword,
    );
    return { lastResult: null, done: true };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const refusal = signInRefusalOf(error);
    if (refusal === "mycor") throw redirect("/mycor");
    if (refusal === "resi")
      return data(
        {
          lastResult: submission.reply({
            formErrors: [AUTH_MESSAGES.resi],
            hideFields: ["password", "confirmPassword"],
          }),
          done: false,
        },
        { status: 403 },
      );
    if (error.kind === "validation" && Object.keys(error.fieldErrors).length > 0) {
      const { fieldErrors, formErrors } = validationReply(error, ["password", "confirmPassword"]);
      return data(
        {
          lastResult: submission.reply({
            fieldErrors,
            formErrors,
            hideFields: ["password", "confirmPassword"],
          }),
          done: false,
        },
        { status: 400 },
      );
    }
    return data(
      {
        lastResult: submission.reply({
          formErrors: [AUTH_MESSAGES.resetFailed],
          hideFields: ["password", "confirmPassword"],
        }),
        done: false,
      },
      { status: 400 },
    );
  }
}

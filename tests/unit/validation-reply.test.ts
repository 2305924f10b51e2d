import { describe, expect, it } from "vitest";
import { validationReply } from "~/features/auth/auth";
import { errorFromResponse } from "~/server/upstream/api-error";
import { toCamel } from "~/server/upstream/casing";

/** Password reset: an upstream validation error about a field the form does not show still says something. */
const upstream = (params: { location: string; message: string }[]) =>
  errorFromResponse(
    422,
    JSON.stringify({ message: "Validation error", body_params: params, path_params: [], query_params: [] }),
    toCamel,
  );

describe("validationReply", () => {
  const shown = ["password", "confirmPassword"] as const;

  it("an error about the token (not on the form) becomes the form's error, in the server's words", () => {
    const reply = validationReply(upstream([{ location: "token", message: "has expired" }]), shown);
    expect(reply).toEqual({ fieldErrors: {}, formErrors: ["token: has expired"] });
  });

  it("errors about the form's own fields stay next to them", () => {
    const reply = validationReply(upstream([{ location: "password", message: "is too common" }]), shown);
    expect(reply).toEqual({ fieldErrors: { password: ["is too common"] }, formErrors: [] });
  });

  it("both: the field keeps its error and the form says the whole text", () => {
    const reply = validationReply(
      upstream([
        { location: "confirm_password", message: "does not match" },
        { location: "token", message: "is invalid" },
      ]),
      shown,
    );
    expect(reply.fieldErrors).toEqual({ confirmPassword: ["does not match"] });
    expect(reply.formErrors).toEqual(["confirm_password: does not match, token: is invalid"]);
  });
});

import { describe, expect, it, vi } from "vitest";
import { getLoginOptions } from "~/features/auth/auth.server";
import type { ApiClient } from "~/server/api-client.server";
import { ApiError } from "~/server/api-error";

function fakeApi(answers: (() => unknown)[]) {
  const get = vi.fn(async () => {
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    return next();
  });
  return { api: { get } as unknown as ApiClient, get };
}

const fail = (kind: ApiError["kind"], status: number) => () => {
  throw new ApiError("x", kind, status);
};

describe("getLoginOptions", () => {
  it("returns the offered options", async () => {
    const { api } = fakeApi([() => ({ items: ["password", "login_link", "login_code", "other"], error: null })]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({ kind: "options", options: ["password", "login_link", "login_code"] });
  });

  it("does not retry mycor or resi", async () => {
    const mycor = fakeApi([() => ({ items: [], error: "mycor" })]);
    expect(await getLoginOptions(mycor.api, "a@b.test")).toEqual({ kind: "mycor" });
    expect(mycor.get).toHaveBeenCalledTimes(1);
    const resi = fakeApi([() => ({ items: [], error: "resi" })]);
    expect(await getLoginOptions(resi.api, "a@b.test")).toEqual({ kind: "resi" });
    expect(resi.get).toHaveBeenCalledTimes(1);
  });

  it("a 404 means no account, without retries", async () => {
    const { api, get } = fakeApi([fail("http", 404)]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({ kind: "unknown" });
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("retries other failures up to 3 times, then fails", async () => {
    const { api, get } = fakeApi([fail("http", 500), fail("network", 502), fail("empty-body", 200), fail("http", 503)]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({ kind: "failed" });
    expect(get).toHaveBeenCalledTimes(4);
  });

  it("succeeds on a retry", async () => {
    const { api, get } = fakeApi([fail("http", 500), () => ({ items: ["login_link"], error: null })]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({ kind: "options", options: ["login_link"] });
    expect(get).toHaveBeenCalledTimes(2);
  });

  it("a timeout spends the page's budget: no retry", async () => {
    const { api, get } = fakeApi([fail("timeout", 504)]);
    expect(await getLoginOptions(api, "a@b.test")).toEqual({ kind: "failed" });
    expect(get).toHaveBeenCalledTimes(1);
  });
});

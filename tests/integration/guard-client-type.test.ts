import { describe, expect, it } from "vitest";
import { requireUser } from "~/server/upstream/guards.server";
import { commitSession, newSession, type SessionUser } from "~/server/upstream/session.server";

/**
 * The BFF guard of every signed-in page (rule sign-in-by-client-type): a session the web tier holds for a
 * residential or large commercial client's person (made before the rule, or by an upstream that let them in)
 * is ended on whatever page it asks for, not only at `/` (its upstream token is revoked: a call to the api).
 */
const user = (clientType: "SMB" | "RESI" | "LARGE_COMMERCIAL", isStaff = false): SessionUser => ({
  id: 9,
  email: "person@client.test",
  firstName: "P",
  lastName: "Q",
  clientId: 3,
  client: { id: 3, name: "Client", clientType },
  isStaff,
  isClientAdmin: false,
  isImpersonating: isStaff,
  canImpersonate: isStaff,
  isDemoMode: false,
});

async function requestAs(u: SessionUser, path = "/accounts") {
  const s = await newSession();
  s.set("user", u);
  s.set("apiSession", "api-token");
  const cookie = (await commitSession(s)).split(";")[0];
  return new Request(`http://app.test${path}`, { headers: { Cookie: cookie } });
}

async function thrown(request: Request) {
  try {
    await requireUser(request);
  } catch (e) {
    return e as Response;
  }
  throw new Error("requireUser let the request through");
}

describe("the signed-in guard by client type", () => {
  it("a large commercial client's person is logged out and sent to /mycor", async () => {
    const res = await thrown(await requestAs(user("LARGE_COMMERCIAL"), "/accounts"));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/mycor");
    expect(res.headers.get("set-cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
  });

  it("a residential client's person is logged out and sent to the login page that says it is not enabled", async () => {
    const res = await thrown(await requestAs(user("RESI"), "/settings"));
    expect(res.headers.get("location")).toBe("/login?email=person%40client.test");
    expect(res.headers.get("set-cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
  });

  it("SMB customers and staff looking at any client pass", async () => {
    expect((await requireUser(await requestAs(user("SMB")))).id).toBe(9);
    expect((await requireUser(await requestAs(user("LARGE_COMMERCIAL", true)))).id).toBe(9);
  });
});

import { describe, expect, it } from "vitest";
import { loader as locationIndex } from "~/routes/_app.locations.$locationId._index";
import { loader as usageIndex } from "~/routes/_app.locations.$locationId.usage._index";
import { commitSession, newSession } from "~/server/upstream/session.server";
import { DANA_SESSION_USER } from "../support/session-users";

/**
 * The index pages of a location redirect to one of its pages. The location id in the path is whatever the
 * visitor typed (the generative hostile-request suite sent `/locations/%F0%90%83%86/usage`): written back into
 * the Location header unchecked, a character outside Latin-1 made the answer a 500 and any other non-id was
 * echoed into the redirect. A value that is not an id leads to the locations list, as on the other location pages.
 */
async function danaCookie() {
  const s = await newSession();
  s.set("user", DANA_SESSION_USER);
  s.set("apiSession", "tok");
  return (await commitSession(s)).split(";")[0];
}

async function thrown(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (answer) {
    return answer;
  }
  throw new Error("the loader did not throw its redirect");
}

const loaders = [
  { name: "/locations/:id", loader: locationIndex, target: (id: string) => `/locations/${id}/spending` },
  {
    name: "/locations/:id/usage",
    loader: usageIndex,
    target: (id: string) => `/locations/${id}/usage/demand`,
  },
];

describe.each(loaders)("$name", ({ loader, target }) => {
  const call = async (locationId: string) => {
    const request = new Request(`http://app.test/locations/${encodeURIComponent(locationId)}`, {
      headers: { cookie: await danaCookie() },
    });
    return thrown(() =>
      Promise.resolve(loader({ request, params: { locationId }, context: { cspNonce: "" } })),
    );
  };

  it("redirects a valid id to its page", async () => {
    const answer = (await call("101")) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(target("101"));
  });

  const hostile = ["𐃆ꎳ", "é", "../../x", "1 2", "-1", "0", "1e3", "x".repeat(8192)];
  it.each(hostile.map((v) => [v.length > 20 ? `${v.slice(0, 5)}… (${v.length} chars)` : v, v]))(
    "sends %j to the locations list",
    async (_label, locationId) => {
      const answer = await call(locationId);
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).status).toBe(302);
      expect((answer as Response).headers.get("Location")).toBe("/locations");
    },
  );
});

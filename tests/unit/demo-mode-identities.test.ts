import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  HARBOR_ACCOUNT_ROWS,
  HARBOR_BUILDING_ROWS,
  HARBOR_CREDENTIALS,
  UTILITY_FOR_BUILDING,
  UTILITY_ROWS,
} from "../../api/db/seed/core";
import { anonymise, hasProviderStandIn, restoreProviderIds } from "~/server/upstream/demo-mode";
import {
  demoAccountNumber,
  demoName,
  demoProviderId,
  demoUsername,
  demoUtilityName,
  isDemoProviderId,
  realProviderId,
} from "../../shared/demo-stand-ins";

/**
 * Demo mode hides every real identity of the seed wherever an upstream answer nests it: building names,
 * nicknames, codes and addresses, utility names and provider ids, account numbers and credential usernames. The shapes are
 * those the reference api answers (camelCased by the api client, or snake_case with x-no-convert); the check
 * puts them at random depths under random keys.
 */
const utilityName = (id: number) => UTILITY_ROWS.find((u) => u[0] === id)![1];
const providerId = (id: number) => UTILITY_ROWS.find((u) => u[0] === id)![2];

type Building = (typeof HARBOR_BUILDING_ROWS)[number];
const buildingIdentities = ([, name, nickname, code, line1, line2, city, state, zip]: Building) =>
  [name, nickname, code, line1, line2, `${city}, ${state} ${zip}`, zip].filter((v): v is string =>
    Boolean(v),
  );

const REAL: string[] = [
  ...HARBOR_BUILDING_ROWS.flatMap(buildingIdentities),
  ...UTILITY_ROWS.map((u) => u[1]),
  ...UTILITY_ROWS.map((u) => u[2]),
  ...HARBOR_ACCOUNT_ROWS.map((a) => a[2]),
  ...HARBOR_CREDENTIALS.map((c) => c[2]),
];

const address = ([, , , , line1, line2, city, state, zipcode]: Building) => ({
  addressLine1: line1,
  addressLine2: line2,
  city,
  state,
  zipcode,
});

/** One upstream shape carrying real identities, built from seed rows picked by the generator. */
const shapes = {
  dismissal: (b: Building) => ({
    thermostat: { id: 1024, deviceName: "Front Counter" },
    issues: [{ issueSlug: "permanent_hold", currentStatus: "active", isDismissed: false }],
    building: { id: b[0], name: b[1], nickname: b[2] },
  }),
  buildingWithAccounts: (b: Building) => ({
    id: b[0],
    name: b[1],
    nickname: b[2],
    code: b[3],
    address: address(b),
    timezone: b[9],
    accounts: HARBOR_ACCOUNT_ROWS.filter((a) => a[1] === b[0]).map((a) => ({
      id: a[0],
      number: a[2],
      accountNumber: a[2],
      buildingId: a[1],
      utilityDisplayName: utilityName(UTILITY_FOR_BUILDING[a[1]]),
      utilityArcadiaProviderId: providerId(UTILITY_FOR_BUILDING[a[1]]),
      arcadiaAccountStatus: a[3],
      arcadiaAccountStatusDetail: a[4],
    })),
  }),
  unassigned: (b: Building) => ({
    unassignedAccounts: HARBOR_ACCOUNT_ROWS.filter((a) => a[1] === b[0]).map((a) => ({
      id: a[0],
      number: a[2],
      accountNumber: a[2],
      buildingId: null,
      utilityDisplayName: utilityName(UTILITY_FOR_BUILDING[a[1]]),
    })),
  }),
  credentials: () => ({
    reconnectUrls: HARBOR_CREDENTIALS.map(([id, utility, username]) => ({
      arcadiaCredentialId: id,
      username,
      utilityName: utilityName(utility),
      url: `https://web.test/authorize-arcadia?utility=${providerId(utility)}&credential=${id}`,
    })),
  }),
  bill: (b: Building) => ({
    id: 5001,
    buildingId: b[0],
    buildingAddress: `${b[4]}, ${b[6]}, ${b[7]} ${b[8]}`,
    accountId: 1001,
    accountNumber: HARBOR_ACCOUNT_ROWS.find((a) => a[1] === b[0])?.[2] ?? "4410-2281-07",
    utility: { id: UTILITY_FOR_BUILDING[b[0]], name: utilityName(UTILITY_FOR_BUILDING[b[0]]) },
  }),
  catalogue: () => ({
    items: UTILITY_ROWS.map(([id, name, provider]) => ({
      id,
      name,
      arcadiaProviderId: provider,
      isConed: false,
    })),
  }),
  providers: () => ({
    items: UTILITY_ROWS.map(([, name, provider]) => ({ label: name, arcadiaProviderId: provider })),
  }),
  teamAccess: (b: Building) => ({
    userBuildingsWithName: [{ userId: 70, buildingId: b[0], hasAccess: true, buildingName: b[1] }],
  }),
};

const snake = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(snake)
    : v && typeof v === "object"
      ? Object.fromEntries(
          Object.entries(v).map(([k, x]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snake(x)]),
        )
      : v;

const shapeArb = fc
  .tuple(
    fc.constantFrom(...(Object.keys(shapes) as (keyof typeof shapes)[])),
    fc.constantFrom(...HARBOR_BUILDING_ROWS),
    fc.boolean(),
  )
  .map(([kind, b, asSnake]) => {
    const body = shapes[kind](b);
    return asSnake ? snake(body) : body;
  });
/** A shape wrapped in random objects and arrays under random keys (never one a rule keys on). */
const nested = fc
  .tuple(
    shapeArb,
    fc.array(fc.tuple(fc.constantFrom("data", "result", "page", "x", "items", "list"), fc.boolean()), {
      maxLength: 4,
    }),
  )
  .map(([body, wrappers]) =>
    wrappers.reduce<unknown>(
      (inner, [key, asArray]) => ({ [key]: asArray ? [inner] : inner, total: 1 }),
      body,
    ),
  );

const leaks = (value: unknown) => {
  const text = JSON.stringify(value);
  return REAL.filter((real) => text.includes(real));
};

describe("demo mode hides the seed's real identities wherever they are nested", () => {
  it("no building, utility, account number or username survives, at any depth, in either casing", () => {
    fc.assert(
      fc.property(fc.array(nested, { minLength: 1, maxLength: 4 }), (bodies) => {
        expect(leaks(anonymise(bodies))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("names the dismissal page's location by its demo name", () => {
    const out = anonymise(shapes.dismissal(HARBOR_BUILDING_ROWS[0]));
    expect(out.building).toEqual({ id: 101, name: demoName(101), nickname: demoName(101) });
    expect(out.thermostat.deviceName).toBe("Front Counter");
  });

  it("gives the same stand-in for the same account, utility and username on every page", () => {
    const b = HARBOR_BUILDING_ROWS[0];
    const accounts = anonymise(shapes.buildingWithAccounts(b));
    const bill = anonymise(shapes.bill(b));
    expect(bill.accountNumber).toBe(accounts.accounts[0].number);
    expect(accounts.accounts[0].accountNumber).toBe(accounts.accounts[0].number);
    expect(bill.utility.name).toBe(accounts.accounts[0].utilityDisplayName);
    expect(bill.utility.name).toBe(demoUtilityName("Seattle City Light"));
    const catalogue = anonymise(shapes.catalogue());
    const providers = anonymise(shapes.providers());
    expect(catalogue.items.map((u) => u.name)).toEqual(providers.items.map((p) => p.label));
    expect(anonymise(shapes.credentials()).reconnectUrls[2].username).toBe(demoUsername("harbor.chicago"));
    expect(demoAccountNumber("100 088 213 447")).toBe(demoAccountNumber("100-088-213-447"));
    // Ids stay (links and forms still work); a provider id gets the same stand-in wherever it is.
    expect(accounts.accounts[0].id).toBe(1001);
    expect(catalogue.items[0].arcadiaProviderId).toBe(demoProviderId(UTILITY_ROWS[0][2]));
    expect(accounts.accounts[0].utilityArcadiaProviderId).toBe(demoProviderId("prov_scl"));
    expect(catalogue.items.map((u) => u.arcadiaProviderId)).toEqual(
      providers.items.map((p) => p.arcadiaProviderId),
    );
  });

  it("gives different utilities different names", () => {
    expect(new Set(UTILITY_ROWS.map((u) => demoUtilityName(u[1]))).size).toBe(UTILITY_ROWS.length);
  });

  it("gives different utilities different provider id stand-ins", () => {
    expect(new Set(UTILITY_ROWS.map((u) => demoProviderId(u[2]))).size).toBe(UTILITY_ROWS.length);
  });

  it("rewrites the provider id of a link into the web's connect flow, and no other link", () => {
    const link = (url: string) => anonymise({ url }).url;
    const scl = demoProviderId("prov_scl");
    expect(link("https://web.test/authorize-arcadia?utility=prov_scl&credential=3")).toBe(
      `https://web.test/authorize-arcadia?utility=${scl}&credential=3`,
    );
    expect(link("/authorize-arcadia?utility=prov_scl&credential=3")).toBe(
      `/authorize-arcadia?utility=${scl}&credential=3`,
    );
    // Another site's page would not know a stand-in; a link without a provider id has nothing to hide.
    expect(link("https://provider.test/reconnect?utility=prov_scl")).toBe(
      "https://provider.test/reconnect?utility=prov_scl",
    );
    expect(link("https://web.test/authorize-arcadia?credential=3")).toBe(
      "https://web.test/authorize-arcadia?credential=3",
    );
    expect(link("not a url: authorize-arcadia")).toBe("not a url: authorize-arcadia");
  });
});

describe("provider id stand-ins and their way back (rule demo-mode-anonymisation)", () => {
  const realIds = UTILITY_ROWS.map((u) => u[2]);

  it("maps every real id to a stand-in and back", () => {
    for (const real of realIds) {
      const standIn = demoProviderId(real);
      expect(standIn).toMatch(/^prov_demo_[0-9a-z]{7}$/);
      expect(isDemoProviderId(standIn)).toBe(true);
      expect(realProviderId(standIn, realIds)).toBe(real);
    }
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.array(fc.string()), (real, others) => {
        const standIn = demoProviderId(real);
        expect(isDemoProviderId(standIn)).toBe(true);
        // Found among any other ids, unless one of them happens to share the stand-in.
        const catalogue = [...others, real];
        if (catalogue.every((o) => o === real || demoProviderId(o) !== standIn))
          expect(realProviderId(standIn, catalogue)).toBe(real);
      }),
    );
  });

  it("gives null for a stand-in of no known id, and leaves an id that is not a stand-in alone", () => {
    expect(realProviderId("prov_demo_0000000", realIds)).toBeNull();
    expect(realProviderId(demoProviderId("prov_elsewhere"), realIds)).toBeNull();
    expect(realProviderId("prov_comed", realIds)).toBe("prov_comed");
    expect(realProviderId("prov_unknown", realIds)).toBe("prov_unknown");
    expect(realProviderId("", realIds)).toBe("");
  });

  it("keeps a stand-in as its own stand-in, so anonymising twice keeps the ids", () => {
    const once = demoProviderId("prov_comed");
    expect(demoProviderId(once)).toBe(once);
    const ids = (body: ReturnType<typeof shapes.catalogue>) => body.items.map((u) => u.arcadiaProviderId);
    const catalogue = anonymise(shapes.catalogue());
    expect(ids(anonymise(catalogue))).toEqual(ids(catalogue));
    // A real id that looks like a stand-in is still found.
    expect(realProviderId("prov_demo_abcdefg", ["prov_demo_abcdefg"])).toBe("prov_demo_abcdefg");
  });

  it("gives null when two real ids would share one stand-in", () => {
    // Not for a real catalogue (32-bit stand-ins), but the way back must not guess: a duplicate-free
    // catalogue where one id is the other's stand-in is the one case that can be built.
    const real = "prov_comed";
    const twin = demoProviderId(real);
    expect(realProviderId(twin, [real, twin])).toBeNull();
  });

  it("restores every stand-in of a query or body before it goes upstream, at any depth", () => {
    const scl = demoProviderId("prov_scl");
    const body = {
      arcadiaProviderId: scl,
      username: "demo.viewer",
      nested: [{ utility: scl }, { utility: "prov_demo_0000000" }],
      count: 3,
      when: new Date(0),
      none: null,
    };
    expect(hasProviderStandIn({ body })).toBe(true);
    const restored = restoreProviderIds(body, realIds);
    expect(restored).toEqual({
      ...body,
      arcadiaProviderId: "prov_scl",
      nested: [{ utility: "prov_scl" }, { utility: "prov_demo_0000000" }],
    });
    expect(restored.when).toBeInstanceOf(Date);
    expect(body.arcadiaProviderId).toBe(scl);
    expect(hasProviderStandIn({ query: { utility: "prov_scl", page: 2 }, body: undefined })).toBe(false);
    expect(hasProviderStandIn({ query: { utility: ["x", scl] } })).toBe(true);
  });
});

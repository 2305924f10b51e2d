import { describe, expect, it } from "vitest";
import { anonymise, anonymiseUser } from "~/server/upstream/demo-mode";
import { DEMO_ADDRESSES, demoAddress } from "../../shared/demo-stand-ins";

const REAL = /Harbor|Pike|Seattle|Flagship|HCC-|Mission|98101/;

describe("demo-mode anonymisation", () => {
  it("cycles through 5 New York addresses, deterministically by building id", () => {
    expect(DEMO_ADDRESSES).toHaveLength(5);
    expect(new Set([101, 102, 103, 104, 105].map((id) => demoAddress(id).addressLine1)).size).toBe(5);
    expect(demoAddress(101)).toEqual(demoAddress(106));
    expect(DEMO_ADDRESSES.every((a) => a.city === "New York" && a.state === "NY")).toBe(true);
  });

  it("replaces building names, nicknames, codes and addresses in every shape", () => {
    const body = {
      items: [
        {
          building: {
            id: 101,
            name: "Harbor Coffee Pike Place",
            nickname: "Flagship",
            code: "HCC-007",
            address: {
              addressLine1: "1912 Pike Pl",
              addressLine2: null,
              city: "Seattle",
              state: "WA",
              zipcode: "98101",
            },
            timezone: "America/Los_Angeles",
          },
          accounts: [{ id: 1, number: "4410", buildingId: 101 }],
          deviceSummary: { numThermostats: 3 },
        },
      ],
      bills: [
        {
          buildingId: 104,
          buildingName: "Harbor Coffee Mission",
          buildingAddress: "2200 Mission St, San Francisco, CA",
        },
      ],
      flat: [
        {
          building_id: 103,
          address_line1: "5300 Ballard Ave",
          city: "Seattle",
          state: "WA",
          zipcode: "98107",
        },
      ],
      client: { id: 1, name: "Harbor Coffee Co.", clientType: "SMB" },
      members: [
        {
          userBuildingsWithName: [
            { userId: 2, buildingId: 102, hasAccess: true, buildingName: "Harbor Coffee Capitol Hill" },
          ],
        },
      ],
      thermostat: { id: 1001, deviceName: "Front Counter", buildingId: 101 },
    };
    const out = anonymise(body);
    expect(JSON.stringify(out)).not.toMatch(REAL);
    expect(out.items[0].building).toMatchObject({
      id: 101,
      name: "Demo Location 101",
      nickname: "Demo Location 101",
      code: "DEMO-101",
    });
    expect(out.items[0].building.address).toEqual({ ...demoAddress(101) });
    expect(out.items[0].building.timezone).toBe("America/Los_Angeles");
    expect(out.bills[0].buildingName).toBe("Demo Location 104");
    expect(out.bills[0].buildingAddress).toContain("New York, NY");
    expect(out.flat[0]).toMatchObject({ address_line1: demoAddress(103).addressLine1, city: "New York" });
    expect(out.client.name).toBe("Demo Client");
    expect(out.members[0].userBuildingsWithName[0].buildingName).toBe("Demo Location 102");
    expect(out.thermostat.deviceName).toBe("Front Counter");
    // Pure: the input is untouched.
    expect(body.client.name).toBe("Harbor Coffee Co.");
  });

  it("replaces team members' names and emails, the same for the same person", () => {
    const body = {
      items: [
        {
          id: 2,
          email: "dana@harborcoffee.test",
          firstName: "Dana",
          lastName: "Whitfield",
          isClientAdmin: true,
          userBuildingsWithName: [{ userId: 2, buildingId: 101, hasAccess: true, buildingName: "Pike" }],
        },
        { id: 3, email: "sam@harborcoffee.test", first_name: "Sam", last_name: "Ortiz" },
      ],
    };
    const out = anonymise(body);
    expect(JSON.stringify(out)).not.toMatch(/harborcoffee|Dana|Whitfield|Sam|Ortiz|Pike/);
    expect(out.items[0]).toMatchObject({
      id: 2,
      email: "demo-user-2@example.com",
      firstName: "Demo",
      lastName: "User 2",
    });
    expect(out.items[1]).toMatchObject({
      email: "demo-user-3@example.com",
      first_name: "Demo",
      last_name: "User 3",
    });
    expect(anonymise(body).items[0].email).toBe(out.items[0].email);
  });

  it("keeps a null nickname null and leaves the user object to the session", () => {
    const out = anonymise({
      id: 7,
      name: "Real",
      nickname: null,
      address: { addressLine1: "1 Real St", city: "X", state: "Y", zipcode: "1" },
    });
    expect(out.nickname).toBeNull();
    const user = anonymise({
      id: 6,
      canImpersonate: true,
      firstName: "Morgan",
      client: { id: 1, name: "Harbor Coffee Co.", clientType: "SMB" },
    });
    expect(user.firstName).toBe("Morgan");
    expect(user.client.name).toBe("Harbor Coffee Co.");
  });

  it("anonymises the session user's client name only in demo mode", () => {
    const u = { isDemoMode: true, client: { id: 1, name: "Harbor Coffee Co.", clientType: "SMB" } };
    expect(anonymiseUser(u).client.name).toBe("Demo Client");
    expect(anonymiseUser({ ...u, isDemoMode: false }).client.name).toBe("Harbor Coffee Co.");
  });
});

import { describe, expect, it } from "vitest";
import { loadTeam } from "~/features/settings/settings.server";
import type { ApiClient } from "~/server/upstream/api-client.server";

/** A client of 300 locations and two members: the team tab's view carries every location only for `?edit=`. */
const member = (id: number, first: string) => ({
  id,
  email: `${first.toLowerCase()}@harborcoffee.test`,
  firstName: first,
  lastName: "Reyes",
  userBuildingsWithName: Array.from({ length: 300 }, (_, i) => ({
    userId: id,
    buildingId: 1000 + i,
    hasAccess: i % 2 === 0,
    buildingName: `Store ${i}`,
  })),
});
const api = { get: async () => ({ items: [member(1, "Dana"), member(2, "Sam")] }) } as unknown as ApiClient;

describe("the team tab's view of a 300-location client", () => {
  it("lists the locations column of every member but the access editor's locations of the edited one only", async () => {
    const { view } = await loadTeam(api, 1, new URLSearchParams("tab=team&edit=2"));
    const byId = new Map(view.members.map((m) => [m.id, m]));
    expect(byId.get(1)!.buildings).toEqual([]);
    expect(byId.get(1)!.locations).toBe("Store 0, Store 2, 150 selected");
    expect(byId.get(2)!.buildings).toHaveLength(300);
    expect(byId.get(2)!.buildings[1]).toEqual({ id: 1001, name: "Store 1", hasAccess: false });
    const { view: list } = await loadTeam(api, 1, new URLSearchParams("tab=team"));
    expect(list.members.every((m) => m.buildings.length === 0)).toBe(true);
  });
});

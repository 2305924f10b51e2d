import { describe, expect, it } from "vitest";
import { accountsPage } from "~/features/accounts/accounts";

const account = (id: number, status = "ACTIVE", detail: string | null = null) => ({
  id,
  arcadiaAccountStatus: status,
  arcadiaAccountStatusDetail: detail,
});
const buildings = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, accounts: [account(i + 1)] }));

describe("accountsPage (rule accounts-page-paged)", () => {
  it("shows 75 buildings a page and the unassigned accounts on the last page only", () => {
    const all = buildings(300);
    const unassigned = [account(1000)];
    const p1 = accountsPage(all, unassigned, 1);
    expect(p1.buildings.map((b) => b.id)).toEqual(all.slice(0, 75).map((b) => b.id));
    expect(p1.unassigned).toEqual([]);
    expect([p1.page, p1.pages, p1.buildingCount, p1.accountCount]).toEqual([1, 4, 300, 301]);
    const p4 = accountsPage(all, unassigned, 4);
    expect(p4.buildings.map((b) => b.id)).toEqual(all.slice(225).map((b) => b.id));
    expect(p4.unassigned).toEqual(unassigned);
  });

  it("clamps a page past the end to the last page; one page holds everything", () => {
    expect(accountsPage(buildings(300), [], 9).page).toBe(4);
    const small = accountsPage(buildings(14), [account(99)], 1);
    expect([small.buildings.length, small.unassigned.length, small.pages]).toEqual([14, 1, 1]);
    expect(accountsPage([], [], 3)).toMatchObject({ page: 1, pages: 1, accountCount: 0 });
  });

  it("counts a connection still in progress on another page as pending", () => {
    const all = buildings(300);
    all[299].accounts = [account(300, "CONNECTION_IN_PROGRESS")];
    expect(accountsPage(all, [], 1).pending).toBe(true);
    expect(accountsPage(buildings(300), [], 1).pending).toBe(false);
    // An account waiting for its email approval is not "processing".
    expect(accountsPage(buildings(1), [account(5, "NEW_ACCOUNT", "EMAIL_APPROVAL")], 1).pending).toBe(false);
  });
});

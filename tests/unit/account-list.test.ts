import { describe, expect, it } from "vitest";
import {
  addPendingAccount,
  CONNECT_MESSAGES,
  MAX_ACCOUNTS,
  readAccountList,
} from "~/features/accounts/accounts";

describe("readAccountList", () => {
  it("normalises each number and drops blanks", () => {
    const q = new URLSearchParams("account=%20%2029-4410%20%208801%20&account=&account=%20&account=1234");
    expect(readAccountList(q.getAll("account"))).toEqual(["29-4410 8801", "1234"]);
  });

  it("reads a form the same way as a query string, missing entries included", () => {
    const form = new FormData();
    form.append("account", " 1234 ");
    form.append("account", "5678");
    expect(readAccountList(form.getAll("account"))).toEqual(["1234", "5678"]);
    expect(readAccountList([undefined, " 9999", null])).toEqual(["9999"]);
  });

  it("keeps at most 50 numbers", () => {
    const many = Array.from({ length: 80 }, (_, i) => String(10_000 + i));
    expect(MAX_ACCOUNTS).toBe(50);
    expect(readAccountList(many)).toEqual(many.slice(0, 50));
  });

  it("does not validate: a bad number stays for conedStepErrors to report", () => {
    expect(readAccountList(["12$4"])).toEqual(["12$4"]);
  });
});

describe("addPendingAccount", () => {
  it("adds a number left in the add box", () => {
    expect(addPendingAccount(["1234"], "  5678 ")).toEqual({
      accounts: ["1234", "5678"],
      pending: "5678",
      error: null,
    });
  });

  it("leaves the list as it is when the box is empty", () => {
    expect(addPendingAccount(["1234"], "   ")).toEqual({ accounts: ["1234"], pending: "", error: null });
    expect(addPendingAccount(["1234"], null)).toEqual({ accounts: ["1234"], pending: "", error: null });
  });

  it("keeps the list and answers the error for an invalid or duplicate number", () => {
    expect(addPendingAccount(["1234"], "12")).toEqual({
      accounts: ["1234"],
      pending: "12",
      error: CONNECT_MESSAGES.badAccountNumber,
    });
    expect(addPendingAccount(["1234"], "1234").error).toBe(CONNECT_MESSAGES.duplicateAccount);
  });
});

/**
 * Whether a client's onboarding steps agree with its data (rule onboarding-matches-data, docs/rules.md). The
 * steps are stored and moved by the user's actions (spec part 1: opening the connect flow starts Bill
 * Monitoring); completion comes from the provider's side, which the reference api stands in for with its
 * seed. A step that contradicts the data reads as a broken product: "Bill Monitoring: Not Started" over 12
 * accounts showing Connected, and "Set up your account" on every page of a client that has done it all.
 */

export type StepStatus = { name: string; status: string };

export type ClientFacts = {
  /** Utility accounts whose connection succeeded (CONNECTION_SUCCESS: "Connected"). */
  connectedAccounts: number;
  /** Thermostats in the client's Control Room. */
  thermostats: number;
};

/** The steps whose stored status the client's data contradicts, each with why. */
export function onboardingContradictions(steps: StepStatus[], facts: ClientFacts): string[] {
  const out: string[] = [];
  for (const { name, status } of steps) {
    if (name === "bill_monitoring") {
      if (facts.connectedAccounts > 0 && status !== "complete")
        out.push(`bill_monitoring is ${status} while ${facts.connectedAccounts} accounts are connected`);
      if (facts.connectedAccounts === 0 && status === "complete")
        out.push("bill_monitoring is complete with no account connected");
    }
    if (name === "thermostats") {
      if (facts.thermostats > 0 && status !== "complete")
        out.push(`thermostats is ${status} while ${facts.thermostats} thermostats are in the Control Room`);
      if (facts.thermostats === 0 && status === "complete")
        out.push("thermostats is complete with no thermostat in the Control Room");
    }
  }
  return out;
}

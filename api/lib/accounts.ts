import { localDate } from "./wall-clock";
import type { ApiDeps } from "./http";

/**
 * Utility accounts as the api answers them: GET /building/{id}/accounts (api/routes/core.ts), the accounts
 * page (api/routes/accounts.ts) and the energy advisor (api/domain/energy-advisor.ts).
 */

type AccountRow = {
  id: number;
  number: string;
  utility_name: string;
  arcadia_provider_id: string;
  arcadia_account_status: string;
  arcadia_account_status_detail: string | null;
  building_id: number | null;
  last_statement_date: string | null;
  connected_at: string | null;
  building_timezone: string | null;
};

export const ACCOUNT_SELECT = `SELECT a.id, a.number, a.building_id, u.name AS utility_name, u.arcadia_provider_id,
  a.arcadia_account_status, a.arcadia_account_status_detail, a.connected_at,
  (SELECT b.timezone FROM buildings b WHERE b.id = a.building_id) AS building_timezone,
  (SELECT MAX(s.statement_date) FROM bill_statements s WHERE s.account_id = a.id) AS last_statement_date
  FROM utility_accounts a JOIN utilities u ON u.id = a.utility_id`;

export function accountJson(a: AccountRow) {
  return {
    id: a.id,
    number: a.number,
    account_number: a.number,
    building_id: a.building_id,
    utility_display_name: a.utility_name,
    utility_arcadia_provider_id: a.arcadia_provider_id,
    arcadia_account_status: a.arcadia_account_status,
    arcadia_account_status_detail: a.arcadia_account_status_detail,
    // The latest statement's date (null before the first): a missing bill past 45 days (rule missing-bill).
    last_statement_date: a.last_statement_date,
    // When the provider first said the account is Connected (D): "Connected on …" before its first bill.
    connected_at: a.connected_at,
    // That day in the account's location (rule location-today): what "Connected on …" says.
    connected_on:
      a.connected_at && a.building_timezone
        ? localDate(Date.parse(a.connected_at), a.building_timezone)
        : (a.connected_at?.slice(0, 10) ?? null),
  };
}

export function accountsOfBuilding(deps: ApiDeps, buildingId: number) {
  return (
    deps.db.prepare(`${ACCOUNT_SELECT} WHERE a.building_id = ? ORDER BY a.id`).all(buildingId) as AccountRow[]
  ).map(accountJson);
}

/** A utility as stored (the provider's utility id is `arcadia_provider_id`). */
export type UtilityRow = {
  id: number;
  name: string;
  arcadia_provider_id: string;
  requires_ebill: number;
  is_coned: number;
  is_jcpl: number;
  mfa_exempt: number;
};

/** The utility the provider knows by `providerId` (the accounts routes and the provider's webhooks). */
export function utilityByProvider(deps: ApiDeps, providerId: string) {
  return deps.db.prepare("SELECT * FROM utilities WHERE arcadia_provider_id = ?").get(providerId) as
    UtilityRow | undefined;
}

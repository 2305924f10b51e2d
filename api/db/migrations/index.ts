import { m001_core } from "./001_core";
import { m002_shared } from "./002_shared";
import { m010_locations } from "./010_locations";
import { m030_usage } from "./030_usage";
import { m040_grid } from "./040_grid";
import { m041_history_daily } from "./041_history_daily";
import { m050_accounts } from "./050_accounts";
import { m060_sign_in_mail } from "./060_sign_in_mail";
import { m070_mail_parts } from "./070_mail_parts";
import { m071_mail_delivery } from "./071_mail_delivery";
import { m072_notifications } from "./072_notifications";
import { m073_sign_in_requester } from "./073_sign_in_requester";
import { m074_bill_flag_answers } from "./074_bill_flag_answers";
import { m076_sign_in_mail_asks } from "./076_sign_in_mail_asks";
import { m080_bill_flag_outcomes } from "./080_bill_flag_outcomes";
import { m077_idempotency_keys } from "./077_idempotency_keys";
import { m081_arcadia } from "./081_arcadia";
import { m082_arcadia_connect_sessions } from "./082_arcadia_connect_sessions";
import { m086_usage_fold } from "./086_usage_fold";
import { m087_arcadia_connect_status } from "./087_arcadia_connect_status";
import { m090_grid_programs } from "./090_grid_programs";
import { m092_prospect_connect_sessions } from "./092_prospect_connect_sessions";

export type Migration = { id: string; sql: string };

/** Every migration of the reference api; ids sort in the order they apply. One line per area. */
export const migrations: Migration[] = [
  m001_core,
  m002_shared,
  m010_locations,
  m030_usage,
  m040_grid,
  m041_history_daily,
  m050_accounts,
  m060_sign_in_mail,
  m070_mail_parts,
  m071_mail_delivery,
  m072_notifications,
  m073_sign_in_requester,
  m074_bill_flag_answers,
  m076_sign_in_mail_asks,
  m080_bill_flag_outcomes,
  m077_idempotency_keys,
  m081_arcadia,
  m082_arcadia_connect_sessions,
  m086_usage_fold,
  m087_arcadia_connect_status,
  m090_grid_programs,
  m092_prospect_connect_sessions,
];

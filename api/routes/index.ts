import type { Router } from "express";
import type { ApiDeps } from "../lib/http";
import { authRoutes } from "./auth";
import { coreRoutes } from "./core";
import { locationsRoutes } from "./locations";
import { thermostatRoutes } from "./thermostats";
import { billRoutes } from "./bills";
import { findingsRoutes } from "./findings";
import { usageRoutes } from "./usage";
import { gridRoutes } from "./grid";
import { complianceRoutes } from "./compliance";
import { accountsRoutes } from "./accounts";
import { arcadiaRoutes, arcadiaWebhookRoutes } from "./arcadia";
import { onboardingRoutes } from "./onboarding";
import { settingsRoutes } from "./settings";
import { prospectRoutes } from "./prospect";
import { devRoutes } from "./dev";
import { devFaultRoutes } from "./dev-faults";
import { outboxRoutes } from "./outbox";
import { emailAnswerRoutes } from "./email-answers";

/** Every router of the reference api, mounted under /api in this order: one entry per area, none nested. */
export const routers: ((deps: ApiDeps) => Router)[] = [
  // Test hooks only (ENABLE_TEST_HOOKS): planned failures answer before any other route runs.
  devFaultRoutes,
  authRoutes,
  coreRoutes,
  locationsRoutes,
  thermostatRoutes,
  billRoutes,
  findingsRoutes,
  usageRoutes,
  gridRoutes,
  complianceRoutes,
  onboardingRoutes,
  settingsRoutes,
  prospectRoutes,
  accountsRoutes,
  arcadiaRoutes,
  emailAnswerRoutes,
  devRoutes,
  outboxRoutes,
];

/**
 * Routers that read their own raw body (the provider's signed webhooks: the signature covers the exact bytes),
 * mounted before the JSON parser, each at its full path.
 */
export const rawBodyRouters: ((deps: ApiDeps) => Router)[] = [arcadiaWebhookRoutes];

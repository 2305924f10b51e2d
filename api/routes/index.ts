import type { Router } from "express";
import type { ApiDeps } from "../lib/http";
import { authRoutes } from "./auth";
import { coreRoutes } from "./core";
import { gridRoutes } from "./grid";
import { complianceRoutes } from "./compliance";

/** Every router of the reference api, mounted under /api. One line per area. */
export const routers: ((deps: ApiDeps) => Router)[] = [authRoutes, coreRoutes, gridRoutes, complianceRoutes];

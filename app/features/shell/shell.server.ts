import type { LoaderFunctionArgs } from "@remix-run/node";
import { anonymiseUser } from "~/server/upstream/demo-mode";
import {
  locationLabel,
  onboardingIncomplete,
  selectorLocations,
  shellNav,
  sortLocations,
} from "~/features/locations/locations";
import { getApi } from "~/server/upstream/upstream.server";
import { getConfig } from "~/server/config.server";
import {
  buildingsAndTotal,
  getOnboardingSteps,
  getUsageAvailable,
} from "~/features/locations/locations.server";
import { requireUser } from "~/server/upstream/guards.server";
import { settle } from "~/server/upstream/api-error";
import { parseId } from "~/lib/ids";
import { redirectWithToast } from "~/server/upstream/session.server";
import { PAGE_NOT_FOUND } from "./notices";

/** The authenticated shell: sidebar (top bar below 595px), location selector, navigation by context, banners. */
export async function appShellLoader({ request, params, context }: LoaderFunctionArgs) {
  const user = anonymiseUser(await requireUser(request));
  const api = await getApi(request, context);
  const wanted = parseId(params.locationId);
  const [buildings, steps, usage] = await Promise.all([
    settle(buildingsAndTotal(api, wanted !== null)),
    user.clientId ? settle(getOnboardingSteps(api, user.clientId)) : null,
    wanted ? settle(getUsageAvailable(api, wanted)) : null,
  ]);
  const list = buildings.ok ? sortLocations(buildings.data.items, user.isStaff) : [];
  const current = list.find((b) => b.id === wanted) ?? null;
  return {
    demoModeActive: user.isDemoMode,
    user: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      isStaff: user.isStaff,
      isImpersonating: user.isImpersonating,
      clientName: user.client?.name ?? null,
    },
    hasClient: user.clientId !== null,
    // Up to 15 locations each have an entry; more are found through the search on the locations page.
    ...selectorLocations(
      list.map((b) => ({ id: b.id, label: locationLabel(b, user.isStaff) })),
      current?.id ?? null,
    ),
    // Off a location's pages the list is the first page of a large client's: count them all.
    ...(buildings.ok && { locationCount: buildings.data.total }),
    current: current ? { id: current.id, label: locationLabel(current, user.isStaff) } : null,
    nav:
      user.clientId === null
        ? []
        : shellNav({
            locationId: current?.id ?? null,
            usageAvailable: Boolean(usage?.ok && usage.data),
            clientId: user.clientId,
          }),
    showOnboarding: Boolean(steps?.ok && onboardingIncomplete(steps.data)),
    helpUrl: getConfig().HELP_URL,
  };
}

/**
 * An unknown path goes to the index, which says so on arrival (spec part 1 §2: "Any unknown path redirects to
 * the index"; rule redirect-says-why): the catch-all route, and a known route's parameter that names no page
 * (`/locations/101/usage/foo`).
 */
export const pageNotFound = (request: Request) =>
  redirectWithToast(request, "/", { kind: "info", message: PAGE_NOT_FOUND });

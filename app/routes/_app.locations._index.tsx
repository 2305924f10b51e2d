import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { formatAddress, locationLabel, sortLocations } from "~/features/locations/locations";
import { listAllBuildings } from "~/features/locations/locations.server";
import { settle } from "~/server/api-error";
import { requireSmb } from "~/server/guards.server";
import { getApi } from "~/server/upstream.server";
import { EmptyState, ErrorState } from "~/ui/states";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireSmb(request);
  const result = await settle(listAllBuildings(await getApi(request)));
  if (!result.ok) return { error: true as const, locations: [] };
  return {
    error: false as const,
    locations: sortLocations(result.data, user.isStaff).map((b) => ({
      id: b.id,
      label: locationLabel(b, user.isStaff),
      address: formatAddress(b.address),
    })),
  };
}

export const meta: MetaFunction = () => [{ title: "Locations · EnergyOps" }];

export default function Locations() {
  const { error, locations } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <h1>Locations</h1>
      {error ? (
        <ErrorState title="Unable to fetch locations." />
      ) : locations.length === 0 ? (
        <EmptyState title="There are no locations integrated." />
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Location</th>
                <th scope="col">Address</th>
              </tr>
            </thead>
            <tbody>
              {locations.map((l) => (
                <tr key={l.id}>
                  <td>
                    <Link to={`/locations/${l.id}/spending`}>{l.label}</Link>
                  </td>
                  <td>{l.address}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

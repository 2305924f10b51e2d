import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/ui/pending";

type Option = { id: number; label: string };

/**
 * The sidebar's location switcher: a disclosure (no script needed). A large client gets a search of every
 * location (the locations page) instead of hundreds of entries (rule location-selector-light).
 */
export function LocationSelect({
  locations,
  locationCount,
  current,
}: {
  locations: Option[];
  locationCount: number;
  current: Option | null | undefined;
}) {
  return (
    <details className="location-select" data-testid="location-select">
      <summary className="btn btn-secondary btn-block">
        <span className="visually-hidden">Location: </span>
        <span className="location-select-label">{current ? current.label : "All locations"}</span>
        <span aria-hidden="true">▾</span>
      </summary>
      <ul className="location-menu" aria-label="Locations">
        <li>
          <Link to="/locations" className="location-menu-all">
            See all locations
          </Link>
        </li>
        {locations.length < locationCount ? (
          <li>
            {/* A large client: a search of every location (the locations page) instead of hundreds of entries. */}
            <Form method="get" action="/locations" role="search" className="location-menu-search">
              <label htmlFor="location-menu-q" className="visually-hidden">
                Search {locationCount} locations
              </label>
              <input
                id="location-menu-q"
                className="input"
                type="search"
                name="q"
                maxLength={100}
                placeholder={`Search ${locationCount} locations`}
              />
              <SubmitButton className="btn btn-secondary btn-small">Search</SubmitButton>
            </Form>
          </li>
        ) : null}
        {locations.map((l) => (
          <li key={l.id}>
            <Link to={`/locations/${l.id}/control`} aria-current={current?.id === l.id ? "page" : undefined}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

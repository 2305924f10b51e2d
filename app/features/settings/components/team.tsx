import { Form, Link } from "@remix-run/react";
import { withQuery, type QueryChanges } from "~/lib/query";
import { SortableHeader, ariaSortOf } from "~/ui/sortable-header";
import { ErrorState } from "~/ui/states";
import { UrlDialog } from "~/ui/url-dialog";
import { useHydrated } from "~/ui/use-hydrated";
import type { TeamSort, TeamView } from "../settings";
import { AccessEditor } from "./access-editor";

/** The team tab: search, the sortable list, and the access editor of the member in `?edit=`. */
export function Team({ team }: { team: TeamView }) {
  const hydrated = useHydrated();
  /** This tab's URL: its search and sort kept (defaults left out), some parameters changed. */
  const keep = (changes: QueryChanges) =>
    `/settings${withQuery("tab=team", {
      q: team.q,
      sort: team.sort === "name" ? null : team.sort,
      dir: team.dir === "asc" ? null : team.dir,
      ...changes,
    })}`;
  const sortHeader = (key: TeamSort, label: string) => {
    const active = team.sort === key;
    const nextDir = active && team.dir === "asc" ? "desc" : "asc";
    return (
      <SortableHeader
        label={label}
        sort={ariaSortOf(active, team.dir)}
        href={keep({ sort: key, dir: nextDir })}
        replace
      />
    );
  };
  const editing = team.members.find((m) => m.id === team.edit) ?? null;
  return (
    <section className="card stack" aria-labelledby="team-heading">
      <h2 id="team-heading">Team</h2>
      <Form
        method="get"
        action="/settings"
        className="team-search"
        role="search"
        aria-label="Search team members"
      >
        <input type="hidden" name="tab" value="team" />
        {team.sort !== "name" ? <input type="hidden" name="sort" value={team.sort} /> : null}
        {team.dir !== "asc" ? <input type="hidden" name="dir" value={team.dir} /> : null}
        <div className="field">
          <label htmlFor="team-q">Search by name or email</label>
          <input id="team-q" name="q" type="search" className="input" defaultValue={team.q} />
        </div>
        <button type="submit" className="btn btn-secondary">
          Search
        </button>
      </Form>
      {team.error ? (
        <ErrorState title="An error has occurred, please try again." />
      ) : team.members.length === 0 ? (
        <p className="muted">No team members match.</p>
      ) : (
        <div className="table-wrap table-cards">
          <table className="table team-table" data-testid="team-table">
            <thead>
              <tr>
                {sortHeader("name", "Name")}
                {sortHeader("email", "Email")}
                {sortHeader("locations", "Locations")}
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {team.members.map((m) => (
                <tr key={m.id}>
                  <td className="member-name">{m.name}</td>
                  <td data-label="Email">{m.email}</td>
                  <td data-label="Locations">{m.locations}</td>
                  <td className="col-action">
                    <Link
                      to={keep({ edit: String(m.id) })}
                      id={`edit-access-${m.id}`}
                      preventScrollReset
                      replace
                      className="btn btn-secondary btn-small"
                      aria-label={`Edit access for ${m.name}`}
                    >
                      Edit access
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <UrlDialog
        open={Boolean(editing)}
        closeHref={`${keep({ edit: null })}${editing ? `#edit-access-${editing.id}` : ""}`}
        title={editing ? `Location access: ${editing.name}` : ""}
      >
        {editing ? (
          <AccessEditor
            key={editing.id}
            member={editing}
            hydrated={hydrated}
            submissionId={team.submissionId}
          />
        ) : null}
      </UrlDialog>
    </section>
  );
}

import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { ariaSortOf, SortableHeader } from "~/ui/sortable-header";

const html = (el: React.ReactElement) =>
  renderToStaticMarkup(
    <MemoryRouter initialEntries={["/locations"]}>
      <table>
        <thead>
          <tr>{el}</tr>
        </thead>
      </table>
    </MemoryRouter>,
  );

describe("SortableHeader", () => {
  it("is a link to the next sort, so it works without JavaScript", () => {
    const out = html(<SortableHeader label="Location" sort="none" href="/locations?sort=x" />);
    expect(out).toContain('<th scope="col" aria-sort="none">');
    expect(out).toContain('<a class="sort-link" href="/locations?sort=x"');
  });

  it("says the sort in aria-sort, an arrow and words for screen readers", () => {
    const asc = html(<SortableHeader label="Name" sort="ascending" href="?a" />);
    expect(asc).toContain('aria-sort="ascending"');
    expect(asc).toContain('<span aria-hidden="true" class="sort-mark">▲</span>');
    expect(asc).toContain('<span class="visually-hidden">, sorted ascending</span>');
    const desc = html(<SortableHeader label="Name" sort="descending" href="?a" />);
    expect(desc).toContain("▼</span>");
    expect(desc).toContain(", sorted descending</span>");
    const none = html(<SortableHeader label="Name" sort="none" href="?a" />);
    expect(none).toContain("↕</span>");
    expect(none).toContain('<span class="visually-hidden">, sort</span>');
  });

  it("passes a class to the cell", () => {
    const out = html(<SortableHeader label="HOLDS" sort="none" href="?b" className="num" replace />);
    expect(out).toContain('<th scope="col" aria-sort="none" class="num">');
  });
});

describe("ariaSortOf", () => {
  it("is the direction of the sorted column and none for the others", () => {
    expect(ariaSortOf(true, "asc")).toBe("ascending");
    expect(ariaSortOf(true, "desc")).toBe("descending");
    expect(ariaSortOf(false, "desc")).toBe("none");
  });
});

// @vitest-environment jsdom
/**
 * A list's view in the address (issue 31, crud/list-address.ts and crud/use-list-table.tsx):
 * address → view (bad values fall back to the defaults), view → address (readable, defaults left
 * out, other parameters kept), the filter bars' CrudFilters into the view, the sort shown on
 * antd's columns, and the hook's writes (replace, page 1 on a new filter) and its form key (a new
 * one only when the address changed from outside the list).
 */
import { afterEach, describe, expect, test } from "vitest";
import { act, cleanup, render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { Table } from "antd";
import type { ReactElement } from "react";
import {
  applyCrudFilters,
  bool,
  crudFiltersOf,
  int,
  listAddress,
  oneOf,
  parseListAddress,
  someOf,
  text,
  type ListSpec,
} from "../../src/client/crud/list-address";
import { useListAddress, withSortOrder } from "../../src/client/crud/use-list-table";
import { WORK_LIST_ADDRESS } from "../../src/client/work-admin/parts/WorkFilterForm";

const SPEC: ListSpec = {
  pageSize: 20,
  pageSizes: [20, 50, 100],
  sort: { field: "id", order: "desc" },
  sortable: ["name", "submittedAt"],
  filters: { contestId: int, name: text, status: someOf(["draft", "submitted", "accepted"]), locked: bool, kind: oneOf([1, 2]) },
};

describe("address → view", () => {
  test("an empty address is the list's defaults", () => {
    expect(parseListAddress("", SPEC)).toEqual({ page: 1, pageSize: 20, sort: { field: "id", order: "desc" }, filters: {} });
  });

  test("every part is read with its type", () => {
    const v = parseListAddress(
      "?page=3&pageSize=50&sort=name&order=asc&contestId=7&name=%20光伏%20&status=submitted,draft&locked=false&kind=2",
      SPEC,
    );
    expect(v).toEqual({
      page: 3,
      pageSize: 50,
      sort: { field: "name", order: "asc" },
      filters: { contestId: 7, name: "光伏", status: ["draft", "submitted"], locked: false, kind: 2 },
    });
  });

  test("bad or unknown values fall back to the defaults, one by one", () => {
    const v = parseListAddress(
      "?page=abc&pageSize=7&sort=password&order=desc&contestId=-1&name=&status=bogus,,&locked=yes&kind=3&evil=1",
      SPEC,
    );
    expect(v).toEqual(parseListAddress("", SPEC));
    expect(parseListAddress("?page=0&pageSize=100000&sort=name&order=sideways&contestId=1.5", SPEC)).toEqual(
      parseListAddress("", SPEC),
    );
    expect(parseListAddress("?page=99999999999&contestId=99999999999", SPEC).page).toBe(1);
    expect(parseListAddress(`?name=${"长".repeat(101)}`, SPEC).filters).toEqual({});
    // Known values in a list with unknown ones: the known ones stay.
    expect(parseListAddress("?status=bogus,accepted", SPEC).filters).toEqual({ status: ["accepted"] });
    // A sort field without order sorts ascending.
    expect(parseListAddress("?sort=submittedAt", SPEC).sort).toEqual({ field: "submittedAt", order: "asc" });
  });

  test("the works list reads the to-do centre's and statistics' links", () => {
    expect(parseListAddress("?status=accepted,format_resubmitted&contestId=3", WORK_LIST_ADDRESS).filters).toEqual({
      contestId: 3,
      status: ["accepted", "format_resubmitted"],
    });
  });
});

describe("view → address", () => {
  test("defaults are left out; the rest in a fixed, readable order", () => {
    expect(listAddress(parseListAddress("", SPEC), SPEC)).toBe("");
    const view = {
      page: 2,
      pageSize: 50,
      sort: { field: "name", order: "asc" as const },
      filters: { status: ["submitted", "accepted"], name: "a&b #1", contestId: 3 },
    };
    const s = listAddress(view, SPEC);
    expect(s).toBe("?contestId=3&name=a%26b+%231&status=submitted,accepted&sort=name&order=asc&pageSize=50&page=2");
    // …and reads back as the same view.
    expect(parseListAddress(s, SPEC)).toEqual({ ...view, filters: { ...view.filters, status: ["submitted", "accepted"] } });
  });

  test("parameters that are not the list's are kept; the list's old ones are replaced", () => {
    const keep = new URLSearchParams("tab=2&page=4&name=old");
    expect(listAddress({ page: 1, pageSize: 20, sort: SPEC.sort, filters: { name: "new" } }, SPEC, keep)).toBe("?tab=2&name=new");
  });

  test("values that are not valid are not written", () => {
    const s = listAddress(
      { page: 1, pageSize: 33, sort: { field: "password", order: "asc" }, filters: { status: ["x"], kind: 9 } },
      SPEC,
    );
    expect(s).toBe("");
  });
});

describe("filter bars' CrudFilters", () => {
  test("merge changes the given filters, an empty value clears one, unknown fields are ignored", () => {
    const now = { name: "光", contestId: 3 };
    expect(
      applyCrudFilters(
        now,
        [
          { field: "name", operator: "eq", value: "" },
          { field: "locked", operator: "eq", value: true },
          { field: "password", operator: "eq", value: "x" },
        ],
        SPEC,
      ),
    ).toEqual({ contestId: 3, locked: true });
  });

  test("replace keeps only the given ones; arrays go as in, single values as eq", () => {
    const v = applyCrudFilters({ name: "光" }, [{ field: "status", operator: "in", value: ["accepted"] }], SPEC, "replace");
    expect(v).toEqual({ status: ["accepted"] });
    expect(crudFiltersOf({ ...v, contestId: 2 })).toEqual([
      { field: "status", operator: "in", value: ["accepted"] },
      { field: "contestId", operator: "eq", value: 2 },
    ]);
  });
});

test("sortable columns get antd's sortOrder from the view's sort, also inside fragments; their keys stay", () => {
  const cols = withSortOrder(
    [
      <Table.Column key="name" dataIndex="name" sorter />,
      <>
        <Table.Column dataIndex="submittedAt" sorter />
        <Table.Column dataIndex="email" />
      </>,
    ],
    { field: "submittedAt", order: "desc" },
  ) as [ReactElement<{ sortOrder?: unknown }>, ReactElement<{ sortOrder?: unknown }>[]];
  expect(cols[0].key).toBe("name");
  expect(cols[0].props.sortOrder).toBeNull();
  expect(cols[1][0].props.sortOrder).toBe("descend");
  expect("sortOrder" in cols[1][1].props).toBe(false);
});

describe("the hook", () => {
  afterEach(cleanup);

  function mount(start: string) {
    const seen: { search: string; formKey: number; go: ReturnType<typeof useListAddress>["go"] }[] = [];
    function Probe() {
      const { view, go, formKey } = useListAddress(SPEC);
      seen.push({ search: listAddress(view, SPEC), formKey, go });
      return null;
    }
    const router = createMemoryRouter(
      [
        { path: "/list", element: <Probe /> },
        { path: "/other", element: null },
      ],
      {
        initialEntries: ["/other", start],
        initialIndex: 1,
      },
    );
    render(<RouterProvider router={router} />);
    return { router, last: () => seen[seen.length - 1] };
  }

  test("its writes replace the address and keep the form; an outside change gives the form a new key", async () => {
    const { router, last } = mount("/list?name=光&page=3");
    expect(last().search).toBe("?name=%E5%85%89&page=3");
    const key = last().formKey;
    await act(async () => last().go({ page: 4 }));
    expect(router.state.location.search).toBe("?name=%E5%85%89&page=4");
    expect(router.state.historyAction).toBe("REPLACE");
    expect(last().formKey).toBe(key);
    // A link to the same page with another filter (e.g. from the to-do centre): the form starts again.
    await act(async () => router.navigate("/list?status=accepted"));
    expect(last().search).toBe("?status=accepted");
    expect(last().formKey).toBe(key + 1);
    // Two changes before the router has shown the first (a filter, then a sort): both stay.
    await act(async () => {
      void last().go({ filters: { status: ["accepted"], name: "光" } });
      void last().go({ sort: { field: "name", order: "asc" } });
    });
    expect(router.state.location.search).toBe("?name=%E5%85%89&status=accepted&sort=name&order=asc");
    await act(async () => router.navigate("/list?status=accepted"));
    // Back to the first entry of the list's history, then forward: what the address says.
    await act(async () => router.navigate(-2));
    expect(last().search).toBe("?name=%E5%85%89&page=4");
  });
});

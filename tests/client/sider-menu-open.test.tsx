// @vitest-environment jsdom
/**
 * Root's side menu opens only the group of the current page (issue 29: 公告管理 with its 13 entries
 * used to open by default and push 证书打印, 仲裁审核 and 查重引擎 below the fold), while every entry
 * stays in the DOM once.
 */
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { cleanup, fireEvent, render } from "@testing-library/react";
import { useState, type ReactNode } from "react";
import { APP_ROUTES as ROUTES } from "../../src/client/pages";
import { buildMenu, menuItems, resolveRoutes, type MenuNode } from "../../src/client/routing/model";
import { permissionSet, policyReady, ruleKey } from "../../src/client/providers/access-control";
import { NavContext, type Nav } from "../../src/client/routing/nav";
import { SiderMenu, openGroupsFor } from "../../src/client/layout/SiderMenu";
import { stubMatchMedia } from "../helpers/jsdom";

let menu: MenuNode[] = [];
beforeAll(async () => {
  stubMatchMedia(false);
  const perms = await permissionSet(await policyReady(), {
    needToLogin: false,
    userType: 0,
    hasComplaintRight: false,
    isSchoolContestJudge: false,
  });
  menu = buildMenu(
    resolveRoutes(ROUTES, (r) => perms.has(ruleKey(r))),
    { complaintView: false },
  );
});
afterEach(cleanup);

function mount(pathname: string) {
  const nav: Nav = {
    Link: ({ to, children, ...rest }: { to: string; children?: ReactNode }) => (
      <a href={to} {...rest}>
        {children}
      </a>
    ),
    useLocation: () => ({ pathname, search: "" }),
    useNavigate: () => () => {},
  };
  function Frame() {
    const [m] = useState(menu);
    return (
      <NavContext.Provider value={nav}>
        <SiderMenu menu={m} />
      </NavContext.Provider>
    );
  }
  return render(<Frame />);
}

const openGroups = (c: HTMLElement) =>
  [...c.querySelectorAll("li.ant-menu-submenu-open")].map((li) => li.getAttribute("data-menu-group"));

describe("root's side menu", () => {
  test("root's menu has groups, 公告管理 among them with its 13 entries", () => {
    const notices = menu.flatMap(function find(n): MenuNode[] {
      return n.label === "公告管理" ? [n] : (n.children ?? []).flatMap(find);
    });
    expect(notices).toHaveLength(1);
    expect(notices[0].children!.length).toBeGreaterThanOrEqual(13);
  });

  test("on the user centre no group is open, and every entry is still in the DOM once", () => {
    const { container } = mount("/index");
    expect(openGroups(container)).toEqual([]);
    const paths = [...container.querySelectorAll("li[data-menu-path]")].map((li) => li.getAttribute("data-menu-path"));
    expect(paths).toEqual(menuItems(menu).map((m) => m.path));
  });

  test("on a page of 公告管理 only its group (and the groups around it) is open", () => {
    const target = menuItems(menu).find((m) => m.path.startsWith("/admin/NoticeManagement/"))!;
    const { container } = mount(target.path);
    const open = openGroups(container);
    expect(open).toContain("公告管理");
    expect(open).toEqual(openGroupsFor(menu, target.path).map((p) => findLabel(menu, p)));
    // A sibling group stays closed.
    const closed = [...container.querySelectorAll("li.ant-menu-submenu:not(.ant-menu-submenu-open)")].map((li) =>
      li.getAttribute("data-menu-group"),
    );
    expect(closed.length).toBeGreaterThan(0);
  });

  test("a page outside the menu opens the group of the entry it belongs to; a click opens another group", () => {
    const target = menuItems(menu).find((m) => m.path.startsWith("/admin/NoticeManagement/"))!;
    const { container } = mount(`${target.path}/edit/1`);
    expect(openGroups(container)).toContain("公告管理");
    const other = container.querySelector("li.ant-menu-submenu:not(.ant-menu-submenu-open)")!;
    fireEvent.click(other.querySelector(".ant-menu-submenu-title")!);
    expect(openGroups(container)).toContain(other.getAttribute("data-menu-group"));
  });
});

function findLabel(nodes: readonly MenuNode[], path: string): string | undefined {
  for (const n of nodes) {
    if (n.path === path && n.children) return n.label;
    const hit = n.children && findLabel(n.children, path);
    if (hit) return hit;
  }
  return undefined;
}

describe("a menu of one group", () => {
  test("stays open on a page of no group (an author's menu on the user centre)", () => {
    const one: MenuNode[] = [
      { label: "作者", path: "/author", children: [{ label: "个人信息", path: "/author/info" }] },
      { label: "申诉入口", path: "/complaint" },
    ];
    expect(openGroupsFor(one, "/index")).toEqual(["/author"]);
    expect(
      openGroupsFor([...one, { label: "评委", path: "/judge-area", children: [{ label: "评审", path: "/judge" }] }], "/index"),
    ).toEqual([]);
  });
});

/**
 * The side menu, given the menu and its to-do counts. Every item's key is its path and its <li>
 * carries data-menu-path; groups carry data-menu-group. Only the group of the current page starts
 * open (issue 29: root's 公告管理 with its 13 entries pushed the rest below the fold); the others
 * open on a click. Closed groups are rendered all the same (forceSubMenuRender), so every item of
 * the user's menu is in the DOM (antd may also keep a hidden popup copy of a group). The admin application's sider (MenuSider) and the
 * light login entry's guest menu (src/client/login) are this one component. The menu is a <nav>
 * landmark, the current page's link is marked aria-current="page"; on a phone (the page frame's
 * drawer) it renders without the sider's box, and choosing an entry closes the drawer.
 */
import { memo, useMemo, useState } from "react";
import { Badge, Layout, Menu, theme, type MenuProps } from "antd";
import { AppLink as Link, useAppLocation as useLocation } from "../routing/nav";
import type { MenuNode } from "../routing/model";
import { Logo } from "../components/Logo";
import { useFrame } from "./frame-context";

type Item = Required<MenuProps>["items"][number];

/** The to-do count of an entry: its own, or for a group the sum of its entries'. */
const countOf = (n: MenuNode, badges: Record<string, number>): number =>
  n.children ? n.children.reduce((s, c) => s + countOf(c, badges), 0) : (badges[n.path] ?? 0);

const withBadge = (label: React.ReactNode, count: number, path: string) =>
  count ? (
    <span style={{ display: "inline-flex", alignItems: "center", gap: 6 }}>
      {label}
      <Badge count={count} size="small" overflowCount={999} data-menu-badge={path} />
    </span>
  ) : (
    label
  );

function toItems(nodes: readonly MenuNode[], badges: Record<string, number>, selected?: string): Item[] {
  return nodes.map((n): Item => {
    if (n.children) {
      return {
        key: n.path,
        icon: n.icon,
        label: withBadge(n.label, countOf(n, badges), n.path),
        children: toItems(n.children, badges, selected),
        "data-menu-group": n.label,
      } as Item;
    }
    // The exit entry is a plain link out of the area: leaving it ends the mode.
    return {
      key: n.path,
      icon: n.icon,
      "data-menu-path": n.path,
      // On the menu item (its link's role is presentational inside it).
      "aria-current": n.path === selected ? "page" : undefined,
      label: <Link to={n.path}>{withBadge(n.label, countOf(n, badges), n.path)}</Link>,
    } as Item;
  });
}

function findItem(nodes: readonly MenuNode[], pathname: string): string | undefined {
  for (const n of nodes) {
    const hit = n.children
      ? findItem(n.children, pathname)
      : n.path.toLowerCase() === pathname.toLowerCase()
        ? n.path
        : undefined;
    if (hit) return hit;
  }
  return undefined;
}

const under = (path: string, prefix: string) => {
  const p = path.toLowerCase();
  const q = prefix.toLowerCase().replace(/\/+$/, "");
  return q !== "" && (p === q || p.startsWith(q + "/"));
};

/**
 * The groups to open for `pathname`: those holding its menu item, or, for a page outside the menu
 * (an edit page, a detail), the item whose path is the longest leading part of it. On a page of no
 * group (the user centre) none, unless the menu has a single group (an author's, a school admin's):
 * that one stays open.
 */
export function openGroupsFor(nodes: readonly MenuNode[], pathname: string): string[] {
  let best: { length: number; groups: string[] } | undefined;
  const walk = (list: readonly MenuNode[], groups: string[]) => {
    for (const n of list) {
      if (n.children) walk(n.children, [...groups, n.path]);
      else if (n.path.toLowerCase() === pathname.toLowerCase()) best = { length: Infinity, groups };
      else if (under(pathname, n.path) && (!best || n.path.length > best.length)) best = { length: n.path.length, groups };
    }
  };
  walk(nodes, []);
  if (best?.groups.length) return best.groups;
  const groups = nodes.filter((n) => n.children);
  return groups.length === 1 ? [groups[0].path] : [];
}

/** Memoised: the menu renders again only when the menu, its counts or the address change (not with every render of its parent). */
export const SiderMenu = memo(function SiderMenu({
  menu,
  badges,
}: {
  menu: readonly MenuNode[];
  badges?: Record<string, number>;
}) {
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(false);
  const { drawer, setMenuOpen } = useFrame();
  const path = pathname.replace(/\/+$/, "") || "/";
  const selected = findItem(menu, path);
  const items = useMemo(() => toItems(menu, badges ?? {}, selected), [menu, badges, selected]);
  // The current page's group; the user's own opening and closing holds until the page or the sider changes.
  const section = useMemo(() => openGroupsFor(menu, path), [menu, path]);
  const at = `${collapsed}|${section.join("|")}`;
  const [opened, setOpened] = useState<{ at: string; keys: string[] }>({ at: "", keys: [] });
  const openKeys = opened.at === at ? opened.keys : collapsed ? [] : section;
  const menuKey = menu.map((m) => m.path).join("|");

  const nav = (
    <nav aria-label="主菜单" data-testid="app-nav">
      <Menu
        key={menuKey}
        mode="inline"
        items={items}
        selectedKeys={selected ? [selected] : []}
        openKeys={openKeys}
        onOpenChange={(keys) => setOpened({ at, keys })}
        // In the drawer, choosing an entry closes it (the page behind it changes).
        onClick={drawer ? () => setMenuOpen(false) : undefined}
        forceSubMenuRender
        // antd wraps every item in a Tooltip that only a collapsed sider shows (the item's title
        // beside its icon); while the menu is open those are dozens of idle triggers and observers
        // rendered with every page (issue 15), so they are there only while it is collapsed.
        _internalDisableMenuItemTitleTooltip={!collapsed}
        style={{ border: "none" }}
        data-testid="app-menu"
      />
    </nav>
  );
  // A phone: the menu alone, in the page frame's drawer (which has the title).
  if (drawer) return nav;

  return (
    <Layout.Sider
      width={220}
      collapsible
      collapsed={collapsed}
      onCollapse={setCollapsed}
      breakpoint="lg"
      theme="light"
      style={{
        backgroundColor: token.colorBgContainer,
        borderRight: `1px solid ${token.colorBorderSecondary}`,
        position: "sticky",
        top: 0,
        height: "100vh",
      }}
      data-testid="app-sider"
    >
      <Link
        to="/"
        aria-label="赛务平台首页"
        style={{
          display: "flex",
          alignItems: "center",
          gap: 8,
          height: 64,
          padding: collapsed ? 0 : "0 16px",
          justifyContent: collapsed ? "center" : "flex-start",
        }}
      >
        <Logo style={{ height: 28, width: 28 }} />
        {!collapsed && <span style={{ fontSize: 18, fontWeight: 700, color: token.colorText }}>赛务平台</span>}
      </Link>
      <div style={{ height: "calc(100% - 64px)", overflowY: "auto" }}>{nav}</div>
    </Layout.Sider>
  );
});

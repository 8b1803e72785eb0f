/**
 * Links, the current address and navigation for the components both applications show (the side
 * menu, the header, the login, registration and password pages), without importing react-router
 * here: the admin application provides react-router's Link, useLocation and useNavigate (App.tsx);
 * the light login entry (src/client/login), which does not download react-router, provides its
 * own history-based ones.
 */
import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType, type ReactNode } from "react";

export interface NavLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  to: string;
  children?: ReactNode;
}

export interface Nav {
  Link: ComponentType<NavLinkProps>;
  /** A hook: the current path and query. */
  useLocation(): { pathname: string; search: string };
  /** A hook: a function that goes to an in-site address. */
  useNavigate(): (to: string) => void;
}

export const NavContext = createContext<Nav | null>(null);

function useNav(): Nav {
  const nav = useContext(NavContext);
  if (!nav) throw new Error("NavContext 未提供");
  return nav;
}

export function AppLink(props: NavLinkProps) {
  const { Link } = useNav();
  return <Link {...props} />;
}

/** The current path and query (a hook). */
export function useAppLocation() {
  return useNav().useLocation();
}

/** Goes to an in-site address (a hook, like react-router's useNavigate). */
export function useAppNavigate() {
  return useNav().useNavigate();
}

/**
 * The Link of an application without react-router (the light login entry, the visitor pages): a
 * plain <a> whose left click without a modifier calls `go` in place of loading the page; any
 * other click (a new tab, a download) is the browser's.
 */
export function historyLink(go: (to: string) => void): ComponentType<NavLinkProps> {
  return function HistoryLink({ to, onClick, ...rest }: NavLinkProps) {
    return (
      <a
        href={to}
        {...rest}
        onClick={(e) => {
          onClick?.(e);
          if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          go(to);
        }}
      />
    );
  };
}

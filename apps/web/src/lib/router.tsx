import {
  Children,
  type ComponentPropsWithRef,
  createContext,
  isValidElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';

// The dashboard's router: the address bar as React state, for a table of fixed paths (app/pages.ts)
// whose list pages keep their state in the query string. It offers what the dashboard uses of
// react-router's API under the same names — a browser router under a base path (the location,
// lib/location.ts), routes with one layout level, an index and a catch-all, links that mark the
// current page, redirects, the search parameters — in about 2 KB instead of react-router's 11
// (docs/decisions/0025-web-router.md). Navigation is synchronous: a list page's state is its URL,
// and a second filter change must build on the first.

export type Location = { pathname: string; search: string; hash: string };
export type NavigateOptions = { replace?: boolean };
type Navigate = (to: string, options?: NavigateOptions) => void;

type RouterState = { location: Location; navigate: Navigate; href: (to: string) => string };
const RouterContext = createContext<RouterState | null>(null);
const OutletContext = createContext<ReactNode>(null);

function router(): RouterState {
  const state = use(RouterContext);
  if (!state) throw new Error('This needs a router above it (BrowserRouter or MemoryRouter)');
  return state;
}

/** A path with its query and fragment, as a Location. */
function parse(to: string): Location {
  const url = new URL(to, 'http://dashboard.invalid');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

const changes = new Set<() => void>();
const notify = () => {
  for (const change of changes) change();
};
const subscribe = (change: () => void) => {
  changes.add(change);
  window.addEventListener('popstate', change);
  return () => {
    changes.delete(change);
    window.removeEventListener('popstate', change);
  };
};
const currentHref = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

/** The browser's address, below `basename` (e.g. `/l/harbour-street`). */
export function BrowserRouter({
  basename = '',
  children,
}: {
  basename?: string | undefined;
  children: ReactNode;
}) {
  const href = useSyncExternalStore(subscribe, currentHref);
  const value = useMemo<RouterState>(() => {
    const full = parse(href);
    const inside = full.pathname.startsWith(basename) ? full.pathname.slice(basename.length) : full.pathname;
    return {
      location: { ...full, pathname: inside || '/' },
      href: (to) => `${basename}${to}`,
      navigate: (to, options) => {
        const target = `${basename}${to}`;
        if (options?.replace) window.history.replaceState(null, '', target);
        else window.history.pushState(null, '', target);
        notify();
      },
    };
  }, [href, basename]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** An address kept in memory (tests): starts at the first of `initialEntries`. */
export function MemoryRouter({
  initialEntries = ['/'],
  children,
}: {
  initialEntries?: string[];
  children: ReactNode;
}) {
  const [entry, setEntry] = useState(initialEntries[0] ?? '/');
  const value = useMemo<RouterState>(
    () => ({ location: parse(entry), href: (to) => to, navigate: (to) => setEntry(to) }),
    [entry],
  );
  return <RouterContext value={value}>{children}</RouterContext>;
}

export function useLocation(): Location {
  return router().location;
}

export function useNavigate(): Navigate {
  return router().navigate;
}

/** The query string as state: setting it navigates (a new history entry unless `replace`). */
export function useSearchParams(): [
  URLSearchParams,
  (next: URLSearchParams | Record<string, string>, options?: NavigateOptions) => void,
] {
  const { location, navigate } = router();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useCallback(
    (next: URLSearchParams | Record<string, string>, options?: NavigateOptions) => {
      const query = new URLSearchParams(next).toString();
      navigate(`${location.pathname}${query ? `?${query}` : ''}`, options);
    },
    [navigate, location.pathname],
  );
  return [params, set];
}

/** Goes to `to` when rendered. */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

type LinkProps = Omit<ComponentPropsWithRef<'a'>, 'href'> & { to: string; replace?: boolean };

/** A link the router follows itself; a new tab, a download or a modified click is the browser's. */
export function Link({ to, replace, onClick, ...props }: LinkProps) {
  const { navigate, href } = router();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || (props.target && props.target !== '_self')) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(to, { replace });
  };
  return <a {...props} href={href(to)} onClick={follow} />;
}

/** Whether `to` is the page shown, or a page below it (`/send` for `/send/list`). */
export function isCurrent(to: string, pathname: string): boolean {
  const path = parse(to).pathname;
  return pathname === path || pathname.startsWith(path === '/' ? '/' : `${path}/`);
}

/** A link marked as the current page (`aria-current`, class `active`) while its page is shown. */
export function NavLink({ className, ...props }: LinkProps) {
  const { location } = router();
  const current = isCurrent(props.to, location.pathname);
  return (
    <Link
      {...props}
      aria-current={current ? 'page' : undefined}
      className={current ? `${className ?? ''} active`.trim() : className}
    />
  );
}

type RouteProps = { path?: string; index?: boolean; element?: ReactNode; children?: ReactNode };

/** A route of <Routes>: a path (or `*`, or the index) and what it shows; a layout has routes inside. */
export function Route(_props: RouteProps): ReactNode {
  return null;
}

function routesOf(children: ReactNode): RouteProps[] {
  return Children.toArray(children)
    .filter((child): child is ReactElement<RouteProps> => isValidElement(child))
    .map((child) => child.props);
}

/** The chain of elements (layouts, then the page) for `pathname`, by `test`. */
function find(routes: RouteProps[], test: (route: RouteProps) => boolean): ReactNode[] | null {
  for (const route of routes) {
    if (route.children !== undefined) {
      const inner = find(routesOf(route.children), test);
      if (inner) return [route.element, ...inner];
    } else if (test(route)) {
      return [route.element];
    }
  }
  return null;
}

/** The route matching the address: a path exactly, else the index for `/`, else `*`. */
export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const routes = routesOf(children);
  const chain =
    find(routes, (route) => route.path !== undefined && route.path !== '*' && route.path === path) ??
    (path === '/' ? find(routes, (route) => route.index === true) : null) ??
    find(routes, (route) => route.path === '*');
  return chain ? <Nested elements={chain} /> : null;
}

/** A layout with what is inside it as its outlet, down to the page. */
function Nested({ elements: [element, ...inside] }: { elements: ReactNode[] }) {
  return (
    <OutletContext value={inside.length > 0 ? <Nested elements={inside} /> : null}>{element}</OutletContext>
  );
}

/** Where a layout route shows the route inside it. */
export function Outlet() {
  return use(OutletContext);
}

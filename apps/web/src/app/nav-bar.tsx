import { lazy, Suspense, useLayoutEffect, useRef, useState } from 'react';
import { useLocation } from '../lib/router.tsx';
import { NavItem, useNavPages } from './nav-items.tsx';
import type { Page } from './pages.ts';

// The header's navigation: every link that fits in the room the header leaves it, in table
// order, and the rest under "More" (a business with several locations has nine pages, a long
// location name in the switcher, the bell and the account button beside them). What fits is
// measured from a hidden copy of the links, again whenever the room or the links change size.

const loadMoreMenu = () => import('./more-menu.tsx');
const MoreMenu = lazy(loadMoreMenu);

/** Whether the page at `pathname` is this one's (or below it), as its link would be marked. */
const isAt = (page: Page, pathname: string) => pathname === page.path || pathname.startsWith(`${page.path}/`);

/** How many of the links (widths in px, in order) fit in `room`, with `more` px kept for "More" when not all do. */
export function linksThatFit(widths: readonly number[], more: number, room: number, gap: number): number {
  const all = widths.reduce((sum, width) => sum + width, 0) + gap * Math.max(0, widths.length - 1);
  if (room <= 0 || all <= room) return widths.length;
  let used = more;
  let fit = 0;
  for (const width of widths) {
    if (used + gap + width > room) break;
    used += gap + width;
    fit += 1;
  }
  return fit;
}

export function NavBar() {
  const items = useNavPages();
  const { pathname } = useLocation();
  const nav = useRef<HTMLElement>(null);
  const measure = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(items.length);
  const [wanted, setWanted] = useState(false);
  const labels = items.map((page) => page.nav.label).join('\n');

  // biome-ignore lint/correctness/useExhaustiveDependencies: the links' labels are what is measured
  useLayoutEffect(() => {
    const room = nav.current;
    const copy = measure.current;
    if (!room || !copy) return;
    const update = () => {
      const widths = [...copy.children].map((child) => child.getBoundingClientRect().width);
      const more = widths.pop() ?? 0;
      const gap = Number.parseFloat(getComputedStyle(room).columnGap) || 0;
      setFit(linksThatFit(widths, more, room.clientWidth, gap));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(room);
    observer.observe(copy);
    return () => observer.disconnect();
  }, [labels]);

  const shown = items.slice(0, fit);
  const rest = items.slice(fit);
  const restActive = rest.some((page) => isAt(page, pathname));
  const trigger = (
    <button
      type="button"
      className={restActive ? 'nav-link nav-more active' : 'nav-link nav-more'}
      aria-haspopup="menu"
      aria-label="More pages"
      onMouseEnter={() => void loadMoreMenu()}
      onFocus={() => void loadMoreMenu()}
      onClick={() => setWanted(true)}
    >
      More
    </button>
  );
  return (
    <nav className="shell-nav" aria-label="Main" ref={nav}>
      {shown.map((page) => (
        <NavItem key={page.name} page={page} />
      ))}
      {rest.length > 0 &&
        (wanted ? (
          <Suspense fallback={trigger}>
            <MoreMenu pages={rest} className={trigger.props.className} />
          </Suspense>
        ) : (
          trigger
        ))}
      <div className="shell-nav__measure" aria-hidden="true">
        <div className="shell-nav__measure-row" ref={measure}>
          {items.map((page) => (
            <span key={page.name} className="nav-link">
              {page.nav.label}
            </span>
          ))}
          <span className="nav-link nav-more">More</span>
        </div>
      </div>
    </nav>
  );
}

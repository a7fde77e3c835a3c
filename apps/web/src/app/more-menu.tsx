import '../components/overlays.css';
import { Menu } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { NavLink } from '../lib/router.tsx';
import { withMantine } from './mantine.tsx';
import type { Page } from './pages.ts';

/** The header's links that do not fit beside the others (loaded on first use, opened at once). */
function MoreMenu({ pages, className }: { pages: Page[]; className: string }) {
  // It takes the place of the button that was clicked: the focus stays on the button.
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <Menu position="bottom-end" defaultOpened withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <button type="button" className={className} aria-label="More pages" ref={button}>
          More
        </button>
      </Menu.Target>
      <Menu.Dropdown>
        {pages.map((page) => (
          <Menu.Item
            key={page.name}
            component={NavLink}
            to={page.path}
            onMouseEnter={() => void page.Component.preload()}
          >
            {page.nav?.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

export default withMantine(MoreMenu);

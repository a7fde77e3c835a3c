import '../components/overlays.css';
import { Menu } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { NavLink } from 'react-router';
import type { Page } from './pages.ts';

/** The header's links that do not fit beside the others (loaded on first use, opened at once). */
export default function MoreMenu({ pages, className }: { pages: Page[]; className: string }) {
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

import '../components/overlays.css';
import { Menu } from '@mantine/core';
import { NavLink } from 'react-router';
import type { Page } from './pages.ts';

/** The header's links that do not fit beside the others (loaded on first use, opened at once). */
export default function MoreMenu({ pages, className }: { pages: Page[]; className: string }) {
  return (
    <Menu position="bottom-end" defaultOpened withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <button type="button" className={className} aria-label="More pages" autoFocus>
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

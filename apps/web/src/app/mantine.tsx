// Every theme variable (the first load has only those our own parts use), in Mantine's layer.
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Title.layer.css';
import { type MantineColorSchemeManager, MantineProvider } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';
import { theme } from './theme.ts';

// Mantine, for the parts that use its components: pages with forms, charts and tables of their
// own, and every overlay (menus, drawers, dialogs, popovers, toasts). Each such part is loaded
// lazily and wraps itself in a MantineScope, so the shell and the pages most visits start on
// (Reviews, sign-in) paint without Mantine's runtime; its styles (the components' common ones
// here, the others beside the module that uses them) arrive with the part.

/**
 * The colour scheme follows the system and the dashboard offers no switch, so there is nothing to
 * remember: Mantine's default manager reads (and writes) localStorage, which costs a fresh
 * profile several milliseconds. app/color-scheme.ts sets the same attribute before the first paint.
 */
const systemScheme: MantineColorSchemeManager = {
  get: (defaultValue) => defaultValue,
  set: () => {},
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {},
};

/**
 * withCssVariables / withGlobalClasses off: both make Mantine inject inline <style> elements,
 * which a strict CSP (style-src 'self') refuses. Their content comes from static CSS instead.
 * defaultColorScheme "auto": light or dark follows the system, and changes with it.
 */
export function MantineScope({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={systemScheme}
      withCssVariables={false}
      withGlobalClasses={false}
    >
      {children}
    </MantineProvider>
  );
}

/** A component (a lazily loaded page or part) inside its own MantineScope. */
export function withMantine<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithMantine(props: P) {
    return (
      <MantineScope>
        <Component {...props} />
      </MantineScope>
    );
  }
  WithMantine.displayName = `WithMantine(${Component.displayName ?? Component.name})`;
  return WithMantine;
}

import { createTheme } from '@mantine/core';

// The default theme's CSS variables ship as a static file (default-css-variables.css) because
// the BFF's CSP allows no inline <style>. Anything changed here that Mantine would turn into a
// CSS variable must also be written in app.css; props-only settings are safe.
export const theme = createTheme({
  primaryColor: 'blue',
  cursorType: 'pointer',
  components: {
    // Close buttons get a name (Mantine's have none). The scroll lock keeps working through its
    // event handlers, without the scrollbar-hiding <style> element a strict CSP would refuse.
    Drawer: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close' },
        removeScrollProps: { removeScrollBar: false },
      },
    },
    Modal: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close' },
        removeScrollProps: { removeScrollBar: false },
      },
    },
    Tooltip: {
      defaultProps: {
        withArrow: true,
        multiline: true,
        w: 280,
        events: { hover: true, focus: true, touch: true },
      },
    },
  },
});

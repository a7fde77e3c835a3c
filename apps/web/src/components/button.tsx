import type { ComponentPropsWithRef } from 'react';
import { Loader } from './loader.tsx';

// The buttons of the pages every visit starts on (the shell, Reviews, Recent requests, sign-in):
// plain <button>s drawn as Mantine's Button is (components/ui.css, from the same theme variables,
// so the contrast fixes in app/app.css hold), without Mantine's runtime on the first load.

export type ButtonProps = ComponentPropsWithRef<'button'> & {
  /** Mantine's variants of the same names: filled (primary), default (outlined), subtle, light. */
  variant?: 'filled' | 'default' | 'subtle' | 'light';
  size?: 'xs' | 'sm';
  /** Shows a spinner in place of the label and ignores clicks, keeping the button's size. */
  loading?: boolean;
  fullWidth?: boolean;
};

export function Button({
  variant = 'filled',
  size = 'sm',
  loading = false,
  fullWidth = false,
  className,
  type = 'button',
  disabled,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      {...props}
      type={type}
      disabled={disabled || loading}
      data-variant={variant}
      data-size={size}
      data-loading={loading || undefined}
      data-block={fullWidth || undefined}
      className={className ? `rd-button ${className}` : 'rd-button'}
    >
      {loading && <Loader size={size === 'xs' ? 14 : 18} className="rd-button__loader" aria-hidden="true" />}
      <span className="rd-button__label">{children}</span>
    </button>
  );
}

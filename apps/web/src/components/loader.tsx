import type { ComponentPropsWithRef, CSSProperties } from 'react';

// Mantine's oval Loader and its Skeleton as plain elements (components/ui.css): the loading
// states of the shell and of the pages every visit starts on, without Mantine's runtime.

type Size = number | 'md';

export function Loader({
  size = 'md',
  className,
  style,
  ...props
}: ComponentPropsWithRef<'span'> & { size?: Size }) {
  const sized = typeof size === 'number' ? ({ '--rd-loader-size': `${size}px` } as CSSProperties) : undefined;
  return (
    <span
      {...props}
      className={className ? `rd-loader ${className}` : 'rd-loader'}
      style={sized ? { ...sized, ...style } : style}
    />
  );
}

/** A grey placeholder of the given height (px) and width (px or a CSS length), pulsing. */
export function Skeleton({ height, width }: { height: number; width?: number | string }) {
  return <div className="rd-skeleton" style={{ height, width: width ?? '100%' }} />;
}

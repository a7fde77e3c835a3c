import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';

// Mantine's Alert (light variant) as a plain element for the first-load pages: the same roles
// and names (an `alert` labelled by its title and described by its body) and the same look
// (components/ui.css, from the theme's "light" variables of the colour).

export type AlertProps = Omit<ComponentPropsWithRef<'div'>, 'title'> & {
  color?: 'blue' | 'red';
  title?: ReactNode;
  /** A close button named `closeButtonLabel`, calling `onClose`. */
  withCloseButton?: boolean;
  closeButtonLabel?: string;
  onClose?: () => void;
};

export function Alert({
  color = 'blue',
  title,
  withCloseButton,
  closeButtonLabel,
  onClose,
  className,
  children,
  ...props
}: AlertProps) {
  const id = useId();
  return (
    <div
      role="alert"
      aria-labelledby={title ? `${id}-title` : undefined}
      aria-describedby={children ? `${id}-body` : undefined}
      {...props}
      className={className ? `rd-alert ${className}` : 'rd-alert'}
      data-color={color}
    >
      <div className="rd-alert__body">
        {title && (
          <div className="rd-alert__title" id={`${id}-title`}>
            {title}
          </div>
        )}
        {children && (
          <div className="rd-alert__message" id={`${id}-body`}>
            {children}
          </div>
        )}
      </div>
      {withCloseButton && (
        <button type="button" className="rd-alert__close" aria-label={closeButtonLabel} onClick={onClose}>
          <svg viewBox="0 0 15 15" aria-hidden="true">
            <path
              d="M11.78 4.03a.5.5 0 0 0-.7-.7L7.5 6.8 3.93 3.32a.5.5 0 1 0-.7.71L6.8 7.5l-3.57 3.57a.5.5 0 0 0 .7.7L7.5 8.2l3.57 3.57a.5.5 0 0 0 .7-.7L8.2 7.5l3.57-3.47Z"
              fill="currentColor"
              fillRule="evenodd"
              clipRule="evenodd"
            />
          </svg>
        </button>
      )}
    </div>
  );
}

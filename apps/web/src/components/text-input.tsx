import './text-input.css';
import { type ComponentPropsWithRef, useId, useState } from 'react';
import { controlProps, Field, type FieldProps } from './field.tsx';

// The sign-in page's inputs: plain <input>s drawn as Mantine's TextInput and PasswordInput are
// (components/ui.css), labelled and described as field.tsx's controls are.

export function TextInput({
  label,
  error,
  required,
  className,
  id,
  ...props
}: FieldProps & ComponentPropsWithRef<'input'>) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <Field id={inputId} label={label} error={error} required={required} className={className}>
      <div className="rd-input" data-error={error ? true : undefined}>
        <input
          type="text"
          {...props}
          {...controlProps(inputId, error, required)}
          className="rd-input__control"
        />
      </div>
    </Field>
  );
}

/** A password with Mantine's show/hide toggle (pointer only, as Mantine's: not in the tab order). */
export function PasswordInput({
  label,
  error,
  required,
  className,
  id,
  ...props
}: FieldProps & Omit<ComponentPropsWithRef<'input'>, 'type'>) {
  const auto = useId();
  const inputId = id ?? auto;
  const [visible, setVisible] = useState(false);
  return (
    <Field id={inputId} label={label} error={error} required={required} className={className}>
      <div className="rd-input rd-input--with-toggle" data-error={error ? true : undefined}>
        <input
          {...props}
          {...controlProps(inputId, error, required)}
          type={visible ? 'text' : 'password'}
          className="rd-input__control"
        />
        <button
          type="button"
          className="rd-input__toggle"
          aria-label="Toggle password visibility"
          aria-pressed={visible}
          tabIndex={-1}
          onMouseDown={(event) => {
            event.preventDefault();
            setVisible((shown) => !shown);
          }}
        >
          <svg viewBox="0 0 15 15" aria-hidden="true">
            <path
              d={
                visible
                  ? 'M13.35 1.65a.5.5 0 0 1 0 .7l-11 11a.5.5 0 0 1-.7-.7l11-11a.5.5 0 0 1 .7 0ZM7.5 3c1.4 0 2.66.5 3.65 1.2L9.9 5.47A3 3 0 0 0 5.47 9.9L3.9 11.47C2.42 10.4 1.4 8.93 1.05 7.64a.5.5 0 0 1 0-.28C1.73 4.95 4.44 3 7.5 3Zm5.6 2.94c.38.5.68 1.04.85 1.56a.5.5 0 0 1 0 .28C13.27 10.05 10.56 12 7.5 12c-.7 0-1.38-.1-2.02-.3l.84-.83c.38.08.78.13 1.18.13a4.1 4.1 0 0 0 4.03-2.72l1.57-1.54Z'
                  : 'M7.5 11C4.8 11 2.7 9.5 1.85 7.5 2.7 5.5 4.8 4 7.5 4s4.8 1.5 5.65 3.5C12.3 9.5 10.2 11 7.5 11Zm0-8C4.44 3 1.73 4.95 1.05 7.36a.5.5 0 0 0 0 .28C1.73 10.05 4.44 12 7.5 12s5.77-1.95 6.45-4.36a.5.5 0 0 0 0-.28C13.27 4.95 10.56 3 7.5 3Zm0 6.5a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z'
              }
              fill="currentColor"
              fillRule="evenodd"
              clipRule="evenodd"
            />
          </svg>
        </button>
      </div>
    </Field>
  );
}

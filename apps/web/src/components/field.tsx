import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';

// Labelled controls of the first-load pages: plain <label> and <select> drawn as Mantine's
// NativeSelect is (components/ui.css), with the same wiring: the label names the control, an error
// is its description and marks it invalid, a required field shows an asterisk hidden from
// assistive technology. The sign-in page's inputs: text-input.tsx.

export type FieldProps = {
  label: ReactNode;
  error?: ReactNode;
  required?: boolean;
  className?: string;
};

export function Field({
  id,
  label,
  error,
  required,
  className,
  children,
}: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className={className ? `rd-field ${className}` : 'rd-field'}>
      <label className="rd-field__label" htmlFor={id}>
        {label}
        {required && (
          <span className="rd-field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {error && (
        <p className="rd-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** What the control itself gets: its id, and the error as its description. */
export function controlProps(id: string, error: ReactNode, required: boolean | undefined) {
  return {
    id,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  } as const;
}

export type SelectOption = { value: string; label: string };

export function NativeSelect({
  label,
  error,
  required,
  className,
  data,
  id,
  ...props
}: FieldProps & Omit<ComponentPropsWithRef<'select'>, 'children'> & { data: readonly SelectOption[] }) {
  const auto = useId();
  const selectId = id ?? auto;
  return (
    <Field id={selectId} label={label} error={error} required={required} className={className}>
      <div className="rd-input rd-input--select" data-error={error ? true : undefined}>
        <select {...props} {...controlProps(selectId, error, required)} className="rd-input__control">
          {data.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <svg className="rd-input__chevron" viewBox="0 0 15 15" aria-hidden="true">
          <path
            d="M4.93 5.43a.45.45 0 0 1 .64 0L7.5 7.36l1.93-1.93a.45.45 0 1 1 .64.64L7.82 8.32a.45.45 0 0 1-.64 0L4.93 6.07a.45.45 0 0 1 0-.64Z"
            fill="currentColor"
            fillRule="evenodd"
            clipRule="evenodd"
          />
        </svg>
      </div>
    </Field>
  );
}

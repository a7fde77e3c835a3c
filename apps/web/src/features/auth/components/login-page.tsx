import './login.css';
import { loginBodySchema } from '@review-desk/shared/bff';
import { formErrors } from '@review-desk/shared/envelope';
import { type FormEvent, useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { PasswordInput, TextInput } from '../../../components/text-input.tsx';
import { safeNext } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { describeError } from '../../../lib/describe-error.ts';
import { Navigate, useNavigate, useSearchParams } from '../../../lib/router.tsx';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useMe } from '../api/get-me.ts';
import { useLogin } from '../api/login.ts';

type FieldErrors = { email?: string; password?: string };

function LoginError({ error }: { error: unknown }) {
  const description = describeError(error);
  const wait = useCountdown(description.retryAfterSeconds, description.receivedAt);
  if (error instanceof ApiError && error.status === 401) {
    return (
      <Alert color="red" title="Could not sign in">
        {error.message || 'Email or password is incorrect.'}
      </Alert>
    );
  }
  return (
    <Alert
      color="red"
      title={error instanceof ApiError && error.status === 429 ? 'Too many attempts' : description.title}
    >
      <p className="text-sm">{description.detail ?? description.meaning}</p>
      {wait > 0 && <p className="text-sm">You can try again in {wait} s.</p>}
    </Alert>
  );
}

export default function LoginPage({ title }: { title: string }) {
  usePageTitle(title);
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const me = useMe();
  const login = useLogin();
  const [errors, setErrors] = useState<FieldErrors>({});

  if (me.data && !login.isPending) return <Navigate to={next} replace />;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.isPending) return;
    const form = new FormData(event.currentTarget);
    const parsed = loginBodySchema.safeParse({ email: form.get('email'), password: form.get('password') });
    if (!parsed.success) {
      setErrors(formErrors(parsed.error, ['email', 'password']));
      return;
    }
    setErrors({});
    login.mutate(parsed.data, { onSuccess: () => navigate(next, { replace: true }) });
  }

  return (
    <main className="login-page">
      <div className="login-card">
        <form onSubmit={submit} noValidate>
          <div className="stack">
            <div>
              <h1 className="login-title">Review Desk</h1>
              <p className="text-sm dimmed">
                {params.get('next') ? 'Sign in to continue where you were.' : 'Sign in to your dashboard.'}
              </p>
            </div>
            {login.error && <LoginError error={login.error} />}
            <TextInput
              label="Email"
              name="email"
              type="email"
              autoComplete="username"
              required
              error={errors.email}
              autoFocus
            />
            <PasswordInput
              label="Password"
              name="password"
              autoComplete="current-password"
              required
              error={errors.password}
            />
            <Button type="submit" loading={login.isPending} fullWidth>
              Sign in
            </Button>
          </div>
        </form>
      </div>
    </main>
  );
}

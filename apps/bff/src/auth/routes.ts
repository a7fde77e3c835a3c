import { AppError } from '@review-desk/server/errors';
import {
  BFF_PATHS,
  changeOwnPasswordSchema,
  ERROR_CODES,
  loginBodySchema,
  type Me,
  ok,
  permissionsOf,
  type RolePolicy,
  type SessionUser,
} from '@review-desk/shared';
import { type Request, Router } from 'express';
import type { Logger } from 'pino';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { named } from '../http/named.ts';
import type { Metrics } from '../metrics.ts';
import {
  type CookieSettings,
  clearSessionCookies,
  readDeviceCookie,
  readSessionToken,
  setDeviceCookie,
  setSessionCookie,
} from './cookies.ts';
import { DEVICE_COOKIE_MAX_AGE_MS, type DeviceCookies } from './devices.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';
import type { SessionStore } from './sessions.ts';
import type { LoginThrottle, Outcome } from './throttle.ts';
import type { UserStore } from './users.ts';

export type AuthDeps = {
  users: UserStore;
  sessions: SessionStore;
  throttle: LoginThrottle;
  cookies: CookieSettings;
  /** Browsers that signed in before keep their own allowance of guesses (devices.ts). */
  devices: DeviceCookies;
  gates: RouteGates;
  businessName: string | null;
  frequencyCapDays: number;
  rolePolicy: RolePolicy;
  logger: Logger;
  metrics: Metrics;
};

export function meFor(
  user: SessionUser,
  deps: Pick<AuthDeps, 'businessName' | 'frequencyCapDays' | 'rolePolicy'>,
): Me {
  return {
    user: { id: user.id, email: user.email, role: user.role },
    permissions: permissionsOf(user.role, deps.rolePolicy),
    business: deps.businessName === null ? null : { name: deps.businessName },
    settings: { frequencyCapDays: deps.frequencyCapDays },
  };
}

export function authRoutes(deps: AuthDeps): Router {
  const router = Router();
  const { users, sessions, throttle, cookies, devices, logger, metrics } = deps;

  router.post(BFF_PATHS.login, named('login'), gateway(deps.gates.login), async (req, res) => {
    const parsed = loginBodySchema.safeParse(await readJsonBody(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const { email, password } = parsed.data;
    const ip = req.ip ?? 'unknown';

    // Only failures count: a right password waits for a slot at most, it is never refused
    // because other sign-ins of the account are under way.
    const device = devices.verify(readDeviceCookie(req), email) ?? undefined;
    const attempt = await throttle.admit(email, ip, device);
    if (attempt.kind === 'refused') {
      const { waitSeconds } = attempt;
      metrics.logins.inc({ result: 'throttled' });
      logger.warn({ reqId: req.ctx.id, ip }, 'login throttled');
      throw new AppError(
        'login_throttled',
        `Too many sign-in attempts. Try again in ${Math.ceil(waitSeconds / 60)} minute${waitSeconds > 60 ? 's' : ''}.`,
        { headers: { 'retry-after': String(waitSeconds) } },
      );
    }

    let outcome: Outcome = 'abandoned';
    let user: Awaited<ReturnType<UserStore['findByEmail']>> = null;
    try {
      user = await users.findByEmail(email);
      // Unknown emails still pay for a hash check, so timing does not reveal which accounts exist.
      const valid = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
      outcome = user && valid ? 'succeeded' : 'failed';
    } finally {
      await attempt.settle(outcome);
    }
    if (!user || outcome === 'failed') {
      metrics.logins.inc({ result: 'failed' });
      logger.info({ reqId: req.ctx.id, ip }, 'login failed');
      throw new AppError('login_failed');
    }

    // Rotation: whatever session this browser had is ended; the login gets a fresh id.
    const previous = readSessionToken(req);
    if (previous !== null) await sessions.destroy(previous);
    const token = await sessions.create(user.id);
    await users.recordLogin(user.id);
    setSessionCookie(req, res, token, cookies);
    setDeviceCookie(req, res, devices.issue(email), { ...cookies, deviceMaxAgeMs: DEVICE_COOKIE_MAX_AGE_MS });
    metrics.logins.inc({ result: 'ok' });
    logger.info({ reqId: req.ctx.id, user: user.id }, 'login');
    res.json(ok(meFor(user, deps)));
  });

  router.post(BFF_PATHS.logout, named('logout'), gateway(deps.gates.logout), async (req: Request, res) => {
    const token = readSessionToken(req);
    if (token !== null) await sessions.destroy(token);
    clearSessionCookies(req, res, cookies);
    res.json(ok({}));
  });

  router.get(BFF_PATHS.me, named('me'), gateway(deps.gates.me), (req, res) => {
    res.json(ok(meFor(req.ctx.session!.user, deps)));
  });

  // A user changes their own password (docs/bff.md, "Your own password"). The current one is
  // checked like a sign-in and throttled with the sign-ins (a stolen session cannot guess it);
  // then every session of the user ends and this browser gets a fresh one: a password is changed
  // when it may have leaked, so a session opened with the old one must not outlive it.
  router.post(BFF_PATHS.password, named('password'), gateway(deps.gates.password), async (req, res) => {
    const parsed = changeOwnPasswordSchema.safeParse(await readJsonBody(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const { user } = req.ctx.session!;
    const ip = req.ip ?? 'unknown';
    const attempt = await throttle.admit(user.email, ip);
    if (attempt.kind === 'refused') {
      const { waitSeconds } = attempt;
      logger.warn({ reqId: req.ctx.id, user: user.id, ip }, 'password change throttled');
      throw new AppError(
        'login_throttled',
        `Too many attempts with a wrong password. Try again in ${Math.ceil(waitSeconds / 60)} minute${waitSeconds > 60 ? 's' : ''}.`,
        { headers: { 'retry-after': String(waitSeconds) } },
      );
    }
    let outcome: Outcome = 'abandoned';
    try {
      const stored = await users.findByEmail(user.email);
      const valid = await verifyPassword(
        parsed.data.currentPassword,
        stored?.passwordHash ?? (await dummyPasswordHash()),
      );
      outcome = stored?.id === user.id && valid ? 'succeeded' : 'failed';
    } finally {
      await attempt.settle(outcome);
    }
    if (outcome === 'failed') {
      logger.info(
        { reqId: req.ctx.id, user: user.id, ip },
        'password change refused: wrong current password',
      );
      const { message } = ERROR_CODES.password_incorrect;
      throw new AppError('password_incorrect', message, { fields: { currentPassword: message } });
    }
    await users.update(user.id, { password: parsed.data.newPassword });
    await sessions.destroyOthers(user.id, null);
    const token = await sessions.create(user.id);
    setSessionCookie(req, res, token, cookies);
    logger.info({ reqId: req.ctx.id, user: user.id }, 'password changed by its user; their sessions ended');
    res.json(ok(meFor(user, deps)));
  });

  router.all(BFF_PATHS.login, named('login'), methodNotAllowed('POST'));
  router.all(BFF_PATHS.logout, named('logout'), methodNotAllowed('POST'));
  router.all(BFF_PATHS.me, named('me'), methodNotAllowed('GET'));
  router.all(BFF_PATHS.password, named('password'), methodNotAllowed('POST'));
  return router;
}

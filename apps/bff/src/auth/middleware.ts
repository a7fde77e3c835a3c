import type { IncomingMessage } from 'node:http';
import { AppError, sendError } from '@review-desk/server/errors';
import { AUTH_REQUIRED_HEADER, AUTH_REQUIRED_SESSION, can, type Permission } from '@review-desk/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { SessionStore } from './sessions.ts';

// The session cookie and the two gates every protected route passes: a live session (401 with
// X-Auth-Required: session, so the dashboard says "sign in again" rather than blaming the API
// key), then a role that has the route's permission (403; the upstream is never called).

/** `__Host-` pins the cookie to this host, path / and HTTPS (it requires Secure). */
export const SECURE_COOKIE = '__Host-rd_session';
export const PLAIN_COOKIE = 'rd_session';

export type CookieSettings = { secure: 'auto' | boolean; publicOrigin: string | null; maxAgeMs: number };

export function cookieIsSecure(req: Request, settings: CookieSettings): boolean {
  if (settings.secure !== 'auto') return settings.secure;
  return req.protocol === 'https' || (settings.publicOrigin?.startsWith('https:') ?? false);
}

export function readSessionToken(req: IncomingMessage): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  let plain: string | null = null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (name === SECURE_COOKIE) return part.slice(eq + 1).trim();
    if (name === PLAIN_COOKIE) plain = part.slice(eq + 1).trim();
  }
  return plain;
}

export function setSessionCookie(req: Request, res: Response, token: string, settings: CookieSettings) {
  const secure = cookieIsSecure(req, settings);
  const name = secure ? SECURE_COOKIE : PLAIN_COOKIE;
  const maxAge = Math.floor(settings.maxAgeMs / 1000);
  res.append(
    'set-cookie',
    `${name}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? '; Secure' : ''}`,
  );
}

export function clearSessionCookies(req: Request, res: Response, settings: CookieSettings) {
  const secure = cookieIsSecure(req, settings);
  const attributes = 'Path=/; HttpOnly; SameSite=Strict; Max-Age=0';
  if (secure) res.append('set-cookie', `${SECURE_COOKIE}=; ${attributes}; Secure`);
  res.append('set-cookie', `${PLAIN_COOKIE}=; ${attributes}`);
}

const SIGN_IN = { [AUTH_REQUIRED_HEADER]: AUTH_REQUIRED_SESSION };

export function requireSession(sessions: SessionStore, cookies: CookieSettings): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const token = readSessionToken(req);
    req.ctx.token = token;
    const found = token === null ? null : sessions.lookup(token);
    if (found === null) {
      sendError(res, new AppError('session_missing', undefined, { headers: SIGN_IN }));
      return;
    }
    if ('expired' in found) {
      clearSessionCookies(req, res, cookies);
      sendError(res, new AppError('session_expired', undefined, { headers: SIGN_IN }));
      return;
    }
    req.ctx.session = found.session;
    next();
  };
}

export function requirePermission(permission: Permission): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const role = req.ctx.session?.user.role;
    if (role !== undefined && can(role, permission)) {
      next();
      return;
    }
    sendError(
      res,
      new AppError(
        'role_forbidden',
        `Your role (${role ?? 'none'}) does not allow this: it needs the ${permission} permission.`,
      ),
    );
  };
}

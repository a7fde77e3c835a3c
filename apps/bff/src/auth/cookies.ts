import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestScheme, type TrustProxy } from '../http/origin.ts';

// The session cookie: its name, reading it, setting and clearing it. And the device cookie a
// browser keeps after signing in (devices.ts), under the same rules.

/** `__Host-` pins the cookie to this host, path / and HTTPS (it requires Secure). */
export const SECURE_COOKIE = '__Host-rd_session';
export const PLAIN_COOKIE = 'rd_session';
export const SECURE_DEVICE_COOKIE = '__Host-rd_device';
export const PLAIN_DEVICE_COOKIE = 'rd_device';

export type CookieSettings = {
  secure: 'auto' | boolean;
  publicOrigin: string | null;
  maxAgeMs: number;
  trust: TrustProxy;
};

export function cookieIsSecure(req: IncomingMessage, settings: CookieSettings): boolean {
  if (settings.secure !== 'auto') return settings.secure;
  return (
    requestScheme(req, settings.trust) === 'https' || (settings.publicOrigin?.startsWith('https:') ?? false)
  );
}

/** A cookie's value, the `__Host-` one first. */
function readCookie(req: IncomingMessage, secureName: string, plainName: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  let plain: string | null = null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (name === secureName) return part.slice(eq + 1).trim();
    if (name === plainName) plain = part.slice(eq + 1).trim();
  }
  return plain;
}

export function readSessionToken(req: IncomingMessage): string | null {
  return readCookie(req, SECURE_COOKIE, PLAIN_COOKIE);
}

export function readDeviceCookie(req: IncomingMessage): string | null {
  return readCookie(req, SECURE_DEVICE_COOKIE, PLAIN_DEVICE_COOKIE);
}

/** The device cookie, set after the session cookie (which stays the first `Set-Cookie`). */
export function setDeviceCookie(
  req: IncomingMessage,
  res: ServerResponse,
  value: string,
  settings: CookieSettings & { deviceMaxAgeMs: number },
) {
  const secure = cookieIsSecure(req, settings);
  const name = secure ? SECURE_DEVICE_COOKIE : PLAIN_DEVICE_COOKIE;
  const maxAge = Math.floor(settings.deviceMaxAgeMs / 1000);
  res.appendHeader(
    'set-cookie',
    `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? '; Secure' : ''}`,
  );
}

export function setSessionCookie(
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  settings: CookieSettings,
) {
  const secure = cookieIsSecure(req, settings);
  const name = secure ? SECURE_COOKIE : PLAIN_COOKIE;
  const maxAge = Math.floor(settings.maxAgeMs / 1000);
  res.appendHeader(
    'set-cookie',
    `${name}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? '; Secure' : ''}`,
  );
}

export function clearSessionCookies(req: IncomingMessage, res: ServerResponse, settings: CookieSettings) {
  const secure = cookieIsSecure(req, settings);
  const attributes = 'Path=/; HttpOnly; SameSite=Strict; Max-Age=0';
  if (secure) res.appendHeader('set-cookie', `${SECURE_COOKIE}=; ${attributes}; Secure`);
  res.appendHeader('set-cookie', `${PLAIN_COOKIE}=; ${attributes}`);
}

import type { FastifyReply } from 'fastify';
import { serializeCookie } from '../../http/cookies';

/** The dashboard's session cookie (httpOnly) and its CSRF companion, which the page reads (CONTRACT.md §12). */
export const SESSION_COOKIE = 'parley_session';
export const CSRF_COOKIE = 'parley_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Methods that change something: a cookie-authenticated one must carry the CSRF token. */
export const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Sets both cookies, `Secure` in production, for the whole site (the dashboard and the API share the gateway's origin). */
export function setSessionCookies(reply: FastifyReply, session: { token: string; csrfToken: string }, maxAge: number, secure: boolean): void {
  void reply.header('set-cookie', [
    serializeCookie(SESSION_COOKIE, session.token, { httpOnly: true, secure, sameSite: 'Strict', path: '/', maxAge }),
    serializeCookie(CSRF_COOKIE, session.csrfToken, { httpOnly: false, secure, sameSite: 'Strict', path: '/', maxAge }),
  ]);
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  void reply.header('set-cookie', [
    serializeCookie(SESSION_COOKIE, '', { httpOnly: true, secure, sameSite: 'Strict', path: '/', maxAge: 0 }),
    serializeCookie(CSRF_COOKIE, '', { httpOnly: false, secure, sameSite: 'Strict', path: '/', maxAge: 0 }),
  ]);
}

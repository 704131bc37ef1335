import type { AuthProvider } from '@refinedev/core';
import { api } from '../api/client';
import { session } from '../api/session';
import { toHttpError } from './data-provider';

/**
 * Refine's auth provider over api/session.ts. A 401 from any call ends the session and shows the sign-in
 * page; a 403 leaves the session alone (the page shows its own "not allowed"). Password reset goes through
 * the API's reset routes; the mail links to /console/reset-password?token=… by default.
 */
export const authProvider: AuthProvider = {
  async login({ email, password }: { email: string; password: string }) {
    try {
      await session.signIn(email, password);
      return { success: true, redirectTo: '/' };
    } catch (error) {
      const { message, statusCode } = toHttpError(error);
      return { success: false, error: { name: String(statusCode), message } };
    }
  },
  async logout() {
    await session.signOut();
    return { success: true, redirectTo: '/login' };
  },
  async check() {
    if (session.identity() || (await session.restore())) return { authenticated: true };
    return { authenticated: false, redirectTo: '/login', logout: true };
  },
  async onError(error: { statusCode?: number }) {
    if (error?.statusCode === 401) return { logout: true, redirectTo: '/login' };
    return {};
  },
  async getIdentity() {
    return session.identity();
  },
  async getPermissions() {
    return session.identity()?.role ?? null;
  },
  async forgotPassword({ email }: { email: string }) {
    try {
      await api('/auth/reset-password', { method: 'POST', body: { email } });
      return { success: true };
    } catch (error) {
      const { message, statusCode } = toHttpError(error);
      return { success: false, error: { name: String(statusCode), message } };
    }
  },
  async updatePassword({ token, password }: { token: string; password: string }) {
    try {
      await api('/auth/reset-password/confirm', { method: 'POST', body: { token, password } });
      return { success: true, redirectTo: '/login' };
    } catch (error) {
      const { message, statusCode } = toHttpError(error);
      return { success: false, error: { name: String(statusCode), message } };
    }
  },
};

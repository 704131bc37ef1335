import type { ConsoleFeature } from '../types';
import { messages } from './messages';
import { ForgotPassword, ResetPassword } from './PasswordReset';
import { SignIn } from './SignIn';

/** Signing in (password, Google, Facebook) and resetting a forgotten password. */
export const authFeature: ConsoleFeature = {
  id: 'auth',
  messages,
  publicRoutes: [
    { path: '/login', element: <SignIn /> },
    { path: '/forgot-password', element: <ForgotPassword /> },
    { path: '/reset-password', element: <ResetPassword /> },
  ],
};

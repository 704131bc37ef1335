import type { ConsoleFeature } from '../types';
import { FirstRun, SignUp } from './AccountForms';
import { messages } from './messages';
import { ForgotPassword, ResetPassword } from './PasswordReset';
import { SignIn } from './SignIn';

/** Signing in (password, Google, Facebook), signing up, the first run's set-up, and resetting a forgotten password. */
export const authFeature: ConsoleFeature = {
  id: 'auth',
  messages,
  publicRoutes: [
    { path: '/login', element: <SignIn /> },
    { path: '/sign-up', element: <SignUp /> },
    { path: '/setup', element: <FirstRun /> },
    { path: '/forgot-password', element: <ForgotPassword /> },
    { path: '/reset-password', element: <ResetPassword /> },
  ],
};

import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';

const ProfilePage = lazy(() => import('./ProfilePage'));

/** The caller's own account (docs/api.md 3.2): details, picture, password, deleting it. Every role. */
export const profileFeature: ConsoleFeature = {
  id: 'profile',
  messages,
  routes: [
    {
      path: '/profile',
      element: (
        <Suspense fallback={<Loading />}>
          <ProfilePage />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/profile', label: 'profile.title' }],
  resources: [{ name: 'profile', one: '/users/me', update: '/users/profile' }],
};

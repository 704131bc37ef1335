import { useGetIdentity } from '@refinedev/core';
import type { ReactNode } from 'react';
import type { Identity, Role } from '../api/session';
import { Forbidden, Loading } from '../components/ui';
import { allows } from '../features/types';

/**
 * Shows the page only to the roles it is for; others see the 403 page. A courtesy, not the protection:
 * the API checks every request itself, so a page opened anyway would get no data.
 */
export function RequireRole({ roles, children }: { roles: readonly Role[] | undefined; children: ReactNode }) {
  const { data: identity, isLoading } = useGetIdentity<Identity>();
  if (roles === undefined) return children;
  if (isLoading) return <Loading />;
  return allows(roles, identity?.role) ? children : <Forbidden />;
}

import { lazyPage } from '../../components/lazy-page';
import { ADMINISTRATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

/** The public website's brand (docs/api.md 14): name, colours, pictures, contact details, home page sections. */
export const brandFeature: ConsoleFeature = {
  id: 'brand',
  messages,
  routes: [{ path: '/brand', roles: ADMINISTRATORS, element: lazyPage(() => import('./BrandPage')) }],
  menu: [{ path: '/brand', label: 'brand.title', roles: ADMINISTRATORS }],
  resources: [{ name: 'site-settings', one: '/site-settings', update: '/site-settings' }],
};

import { createContext, useContext } from 'react';
import type { MenuItem } from '../features/types';

/** Every feature's navigation entries (App provides them; the side navigation and the home page show them). */
export const MenuContext = createContext<readonly MenuItem[]>([]);

export function useMenu(): readonly MenuItem[] {
  return useContext(MenuContext);
}

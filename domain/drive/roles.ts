// What each Drive operation needs of the caller's role on the item (docs/drive-sharing.md § Roles).
import type { Role } from '../roles.js';

/** The least role each Drive operation needs. */
export const NEEDS = {
  read: 'viewer',
  create: 'editor',
  update: 'editor',
  trash: 'editor',
  delete: 'manager',
} as const satisfies Record<string, Role>;

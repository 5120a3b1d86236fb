// Roles on Drive items and what each allows (docs/drive.md § Roles).
export const ROLES = ['viewer', 'commenter', 'editor', 'manager', 'owner'] as const;
export type Role = (typeof ROLES)[number];
export type GrantRole = Exclude<Role, 'owner'>;

export const roleRank = (role: Role): number => ROLES.indexOf(role);
export const atLeast = (role: Role, needed: Role): boolean => roleRank(role) >= roleRank(needed);

/** The least role each Drive operation needs. */
export const NEEDS = {
  read: 'viewer',
  create: 'editor',
  update: 'editor',
  trash: 'editor',
  delete: 'manager',
} as const satisfies Record<string, Role>;

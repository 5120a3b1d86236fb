// Roles on Drive items and documents, lowest first: the same ladder for both (docs/drive-sharing.md § Roles).
export const ROLES = ['viewer', 'commenter', 'editor', 'manager', 'owner'] as const;
export type Role = (typeof ROLES)[number];
export type GrantRole = Exclude<Role, 'owner'>;

export const roleRank = (role: Role): number => ROLES.indexOf(role);
export const atLeast = (role: Role, needed: Role): boolean => roleRank(role) >= roleRank(needed);

// Every OAuth scope Folio knows. Each route names the one it needs in its middleware chain.
export const SCOPES = [
  'drive.read',
  'drive.create',
  'drive.update',
  'drive.delete',
  'docs.read',
  'docs.write',
  'docs.comment',
  'email.read',
  'webhooks.manage',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

// Documents in tests: a document shared with new colleagues, reading its content, and the objects the API answers.
import { call, makeColleague, makeDocument, makeUser, shareDocument, type TestUser } from './api.js';

type GrantRole = 'viewer' | 'commenter' | 'editor' | 'manager';

/** GET /v1/documents/{uuid}/content as the user. */
export const readContent = (user: TestUser, uuid: string) =>
  call('GET', `/v1/documents/${uuid}/content`, { token: user.token });

/** The document_content object a content read or edit answers. */
export const documentContent = (
  uuid: string,
  revision: number,
  markdown: unknown,
  threads: unknown = [],
) => ({
  object: 'document_content',
  uuid,
  revision,
  markdown,
  threads,
});

/** A person as the API shows one: `self` when it is the caller; test users have a first name at most. */
export const person = (self: boolean, first: string | null = null) => ({
  self,
  first_name: first,
  last_name: null,
  display_name: first,
});

/**
 * New colleagues of the owner, one per key, then a new document of the owner's shared with each colleague in the
 * role its key maps to (null: not shared, a workspace member who cannot see it). Answers the document and the
 * colleagues by key.
 */
export async function documentWithColleagues<K extends string>(
  owner: TestUser,
  roles: Record<K, GrantRole | null>,
  options: { title?: string; markdown?: string } = {},
): Promise<{ document: any } & Record<K, TestUser>> {
  const entries = Object.entries(roles) as [K, GrantRole | null][];
  const colleagues = {} as Record<K, TestUser>;
  for (const [key] of entries) colleagues[key] = await makeColleague(owner);
  const document = await makeDocument(owner, options);
  for (const [key, role] of entries) if (role) await shareDocument(document.uuid, colleagues[key], role);
  return { document, ...colleagues };
}

/** Olive's document with the given markdown, shared with her colleague Cora as a commenter. */
export async function documentWithCommenter(markdown: string) {
  const owner = await makeUser({ firstName: 'Olive' });
  const commenter = await makeColleague(owner, { firstName: 'Cora' });
  const document = await makeDocument(owner, { markdown });
  await shareDocument(document.uuid, commenter, 'commenter');
  return { owner, commenter, document };
}

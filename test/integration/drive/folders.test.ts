import { describe, expect, it } from 'vitest';
import { call, makeUser } from '../../support/api.js';

describe('Drive folders', () => {
  it('creates a folder at the root with the exact drive_folder object', async () => {
    const user = await makeUser({ firstName: 'Ada', lastName: 'Lovelace' });
    const response = await call('POST', '/v1/drive/folders', { token: user.token, json: { name: 'Projects', color: '#a1b2c3' } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      object: 'drive_folder',
      uuid: expect.any(String),
      parent_uuid: null,
      name: 'Projects',
      color: '#A1B2C3',
      trashed: false,
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      my_role: 'owner',
      shared: false,
      owner: { self: true, first_name: 'Ada', last_name: 'Lovelace', display_name: 'Ada Lovelace' },
    });
  });
});

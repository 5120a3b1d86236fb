// A minimal browser for the admin app over fetch: a cookie jar, no automatic redirects, and the page's CSRF token
// read from its forms, so tests see exactly what the server answers to each step.
import { createSignInLink, signInUrl } from '../../domain/admin/sessions.js';
import { config } from '../../platform/config.js';
import { db } from '../../platform/database.js';
import { apiUrl } from './api.js';
import { rememberSecret, rememberSecretsIn } from './log-scan.js';

export const adminBase = () => `${apiUrl()}/admin`;

export interface Page {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

export class AdminClient {
  readonly cookies = new Map<string, string>();

  async request(
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<Page> {
    const url = path.startsWith('http') ? path : `${apiUrl()}${path}`;
    const sent: Record<string, string> = { ...headers };
    if (this.cookies.size)
      sent.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let body: string | undefined;
    if (form) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(form))
        for (const one of [value].flat()) params.append(name, one);
      body = params.toString();
      sent['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await fetch(url, { method, headers: sent, body, redirect: 'manual' });
    // Links, session cookies and anything else secret it met, for the scan of the logs (test/support/log-scan.ts).
    rememberSecretsIn(url);
    for (const line of response.headers.getSetCookie()) {
      rememberSecretsIn(line);
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    rememberSecretsIn(text);
    return {
      status: response.status,
      headers: response.headers,
      body: text,
      location: response.headers.get('location'),
    };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /** POSTs a form with the CSRF token of the page given (as a signed-in browser would). */
  post(path: string, fields: Record<string, string | string[]> = {}, csrfFrom?: Page) {
    return this.request('POST', path, { ...(csrfFrom ? { _csrf: csrfTokenOf(csrfFrom) } : {}), ...fields });
  }
}

export function csrfTokenOf(page: Page): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page.body);
  if (!match) throw new Error('the page has no CSRF token');
  return match[1]!;
}

/** The path of a sign-in link printed for this admin (as `folio admin sign-in-link` does). */
export async function signInLinkPath(user: string): Promise<string> {
  const link = await createSignInLink(db(), { user });
  rememberSecret('admin sign-in link secret', link.token);
  return new URL(signInUrl(config().admin.url, link.token)).pathname;
}

/** A client signed in as this admin through a one-time link. */
export async function signedIn(user: string): Promise<AdminClient> {
  const client = new AdminClient();
  const answer = await client.post(await signInLinkPath(user));
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
  return client;
}

// The console's one door to the API: the generated client (src/client), with the session's CSRF
// token held in memory only (never in localStorage).
import { createArrgoClient } from '../../../src/client';

export { ApiError, unwrap } from '../../../src/client';
export type { components, operations } from '../../../src/client';

/** The URL base arrgo is served under ('' or e.g. '/arrgo'), as the server wrote it into index.html. */
export function urlBase(): string {
  const content = document.querySelector('meta[name="arrgo-base"]')?.getAttribute('content') ?? '';
  return content.replace(/\/+$/, '');
}

let csrfToken: string | null = null;

/** The current session's CSRF token (from GET /auth/status; null without a session). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export const api = createArrgoClient({ baseUrl: urlBase(), csrfToken: () => csrfToken });

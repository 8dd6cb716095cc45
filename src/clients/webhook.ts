import { classifyNetworkError } from './http';

/** What a receiver did with one POST: its status code, or why there was none. The body is never read into arrgo. */
export type WebhookResult = { status: number } | { failure: 'timeout' | 'unreachable' };

/**
 * POSTs a JSON body to a notification receiver. Redirects are not followed (a signed body goes
 * only where it was configured to go); the response body is drained and dropped.
 */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<WebhookResult> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'arrgo-notifications', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status };
  } catch (error) {
    const failure = classifyNetworkError(error);
    return { failure: failure === 'timeout' ? 'timeout' : 'unreachable' };
  }
}

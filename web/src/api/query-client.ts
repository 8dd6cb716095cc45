import { QueryCache, QueryClient, MutationCache } from '@tanstack/react-query';
import { ApiError } from './client';

export const AUTH_STATUS_KEY = ['auth', 'status'] as const;

/** A refusal is the answer: retry only what may pass next time (no answer, 5xx). */
function retry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  // A 401 anywhere means the session ended (expired, logged out elsewhere): ask who we are again,
  // and the session guard sends the user to the sign-in page.
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) void client.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: { queries: { retry, staleTime: 5_000, refetchOnWindowFocus: true } },
  });
  return client;
}

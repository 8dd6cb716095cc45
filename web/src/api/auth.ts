import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, setCsrfToken, unwrap, urlBase } from './client';
import { AUTH_STATUS_KEY } from './query-client';

/** Who is signed in; also hands the session's CSRF token to the client (memory only). */
export const authStatusQuery = queryOptions({
  queryKey: AUTH_STATUS_KEY,
  queryFn: async () => {
    const status = await unwrap(api.GET('/api/v1/auth/status'));
    setCsrfToken(status.csrfToken);
    return status;
  },
  staleTime: 60_000,
});

export function useAuthStatus() {
  return useQuery(authStatusQuery);
}

export interface Credentials {
  username: string;
  password: string;
}

/** After a sign-in, a sign-out or the setup: forget everything read so far and ask who we are. */
function useSessionChanged() {
  const queryClient = useQueryClient();
  return async () => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== AUTH_STATUS_KEY[0] });
    await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
  };
}

export function useLogin() {
  const sessionChanged = useSessionChanged();
  return useMutation({ mutationFn: (body: Credentials) => unwrap(api.POST('/api/v1/auth/login', { body })), onSuccess: sessionChanged });
}

export function useSetup() {
  const sessionChanged = useSessionChanged();
  return useMutation({ mutationFn: (body: Credentials) => unwrap(api.POST('/api/v1/auth/setup', { body })), onSuccess: sessionChanged });
}

/**
 * Signs out, then loads the sign-in page afresh: nothing read during the session (cached answers,
 * the CSRF token) stays in the page's memory.
 */
export function useLogout() {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/logout')),
    onSuccess: () => {
      setCsrfToken(null);
      window.location.replace(`${urlBase()}/login`);
    },
  });
}

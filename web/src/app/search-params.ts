import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's picks in its address (so links and reloads keep them), and one way to change them:
 * each key to a value, or null (or '') to remove it; the other parameters stay.
 */
export function useSearchParamPicks(): [URLSearchParams, (changes: Record<string, string | null>, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (changes: Record<string, string | null>, options?: { replace?: boolean }) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      }, options),
    [setParams],
  );
  return [params, set];
}

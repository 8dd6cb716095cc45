// Naming previews (POST /naming/preview): each format rendered for sample movies, episodes or
// tracks, with the family's token help.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';

export type NamingPreviewRequest = components['schemas']['NamingPreviewRequest'];
export type NamingPreview = components['schemas']['NamingPreview'];

export function useNamingPreview(request: NamingPreviewRequest | null) {
  return useQuery({
    queryKey: ['naming', 'preview', request] as const,
    enabled: request !== null,
    queryFn: () => unwrap(api.POST('/api/v1/naming/preview', { body: request! })),
    placeholderData: keepPreviousData,
  });
}

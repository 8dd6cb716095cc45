// What custom-format conditions may hold (GET /custom-formats/condition-types): the editor offers
// exactly the types and values a sync can write.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';

export type ConditionTypeInfo = components['schemas']['ConditionTypes']['types'][number];

export function useConditionTypes() {
  return useQuery({
    queryKey: ['custom-formats', 'condition-types'] as const,
    queryFn: () => unwrap(api.GET('/api/v1/custom-formats/condition-types')),
    staleTime: Infinity,
  });
}

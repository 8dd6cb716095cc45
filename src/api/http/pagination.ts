import type { ZodTypeAny } from 'zod';
import { integerQuery, z } from './zod';

export const PAGE_SIZE_MAX = 200;
export const PAGE_SIZE_DEFAULT = 50;

export const paginationQuery = {
  page: integerQuery(1, 1_000_000).optional().default('1').openapi({ description: 'Page number, from 1 (default 1)' }),
  pageSize: integerQuery(1, PAGE_SIZE_MAX)
    .optional()
    .default(String(PAGE_SIZE_DEFAULT))
    .openapi({ description: `Items per page, 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT})` }),
};

export function paginated<T extends ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalRecords: z.number().int(),
    totalPages: z.number().int(),
    hasNext: z.boolean(),
  });
}

export function page<T>(items: T[], total: number, pageNumber: number, pageSize: number) {
  const totalPages = Math.ceil(total / pageSize);
  return { items, page: pageNumber, pageSize, totalRecords: total, totalPages, hasNext: pageNumber < totalPages };
}

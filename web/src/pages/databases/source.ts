import type { Database } from '../../api/types';

/** Where a database comes from, in one line: "<url> (branch <branch>)" or the directory. */
export function sourceText(source: Database['source']): string {
  if (source.kind === 'local') return source.path ?? '';
  return source.branch ? `${source.url} (branch ${source.branch})` : (source.url ?? '');
}

import type { Database } from '../../api/types';

/** Where a database comes from, in one line: "<url> (branch <branch>)", with "token set" for a private repository, or the directory. */
export function sourceText(source: Database['source']): string {
  if (source.kind === 'local') return source.path ?? '';
  const text = source.branch ? `${source.url} (branch ${source.branch})` : (source.url ?? '');
  return source.tokenSet ? `${text} · token set` : text;
}

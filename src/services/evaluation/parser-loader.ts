/**
 * Loads the release parser once, checking it on a known title. If the module fails to load or its
 * check throws, evaluation goes on without it: `parserAvailable` is false, `parsed` is null, and
 * only release-title conditions are evaluated (docs/evaluation.md, "When the parser fails to load").
 */
import { type Logger, logFailure } from '../../platform/logger';
import type { ParsedRelease, ReleaseKind } from '../../domain/evaluation/release-parser';

export interface ReleaseParser {
  version: string;
  parse(title: string, kind: ReleaseKind): ParsedRelease | null;
}

type ParserModule = typeof import('../../domain/evaluation/release-parser');

export function loadReleaseParser(logger: Logger, load: () => ParserModule = () => require('../../domain/evaluation/release-parser') as ParserModule): ReleaseParser | null {
  try {
    const mod = load();
    mod.parseRelease('Movie.Title.2010.1080p.BluRay.x264-GROUP', 'movie');
    mod.parseRelease('Series.Title.S01E02.720p.HDTV.x264-GROUP', 'series');
    return { version: mod.PARSER_VERSION, parse: mod.parseRelease };
  } catch (error) {
    logFailure(logger, 'error', {}, error, 'release parser failed to load: titles are evaluated without parsing');
    return null;
  }
}

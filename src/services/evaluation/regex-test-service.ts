/**
 * POST /entity-testing/regex: one .NET pattern against test strings, matched the .NET way (the
 * translation custom formats are evaluated with) and as JavaScript would read the same text, with
 * the constructs the two dialects read differently. Matching runs under the per-match deadline in
 * a runner of its own, so a pattern being typed never evicts a database's compiled formats from
 * the release evaluator's worker.
 */
import { decidesFor, dialectReport, subjectKey, type DialectNote, type TranslatedRegex } from '../../domain/evaluation';
import { MATCH_TIMEOUT, MATCH_YES, RegexRunner, type RegexTable } from './regex-runner';

export type MatchOutcome = 'match' | 'noMatch' | 'timedOut';

export interface RegexTestResult {
  text: string;
  /** As the apps match (.NET, case-insensitive); null when .NET would refuse the pattern or arrgo cannot translate it. */
  dotnet: MatchOutcome | null;
  /** As a JavaScript RegExp with the i flag; null when the pattern does not compile as JavaScript. */
  javascript: MatchOutcome | null;
  /** Both answered and the answers differ. */
  differs: boolean;
}

export interface RegexTestResponse {
  pattern: string;
  /** .NET accepts the pattern and arrgo runs it the .NET way. */
  valid: boolean;
  /** Why not (null when valid). */
  reason: string | null;
  /** Offset in the pattern the reason points at, when known. */
  offset: number | null;
  javascriptCompiles: boolean;
  differences: DialectNote[];
  results: RegexTestResult[];
  deadlineMs: number;
}

const OUTCOMES: Record<number, MatchOutcome> = { 0: 'noMatch', [MATCH_YES]: 'match', [MATCH_TIMEOUT]: 'timedOut' };

export class RegexTestService {
  private readonly runner: RegexRunner;

  constructor(options: { deadlineMs: number }) {
    this.runner = new RegexRunner({ deadlineMs: options.deadlineMs });
  }

  async close(): Promise<void> {
    await this.runner.close();
  }

  async test(pattern: string, texts: string[]): Promise<RegexTestResponse> {
    const report = dialectReport(pattern);
    const patterns: TranslatedRegex[] = [];
    const dotnetIndex = report.valid ? patterns.push(report.translated) - 1 : null;
    // The pattern as written, read by JavaScript: a "translation" that is the text itself.
    const javascriptIndex = report.javascriptCompiles ? patterns.push({ pattern, template: pattern, flags: 'i', subjectDependent: false }) - 1 : null;
    let codes: Uint8Array[] = texts.map(() => new Uint8Array(0));
    if (patterns.length > 0 && texts.length > 0) {
      const table: RegexTable = { patterns, sets: [patterns.map((_, i) => i)] };
      codes = await this.runner.run(
        table,
        texts.map((subject) => ({ subject, key: subjectKey(subject), set: 0 })),
      );
    }
    const outcome = (result: Uint8Array, index: number | null): MatchOutcome | null => (index === null ? null : (OUTCOMES[result[index]] ?? 'noMatch'));
    return {
      pattern,
      valid: report.valid,
      reason: report.valid ? null : report.reason,
      offset: report.valid ? null : report.offset,
      javascriptCompiles: report.javascriptCompiles,
      differences: report.differences,
      results: texts.map((text, i) => {
        // A text with a character outside the BMP that the pattern's answer depends on gets no .NET answer.
        const dotnet = report.valid && !decidesFor(report.translated, text) ? null : outcome(codes[i], dotnetIndex);
        const javascript = outcome(codes[i], javascriptIndex);
        return { text, dotnet, javascript, differs: dotnet !== null && javascript !== null && dotnet !== 'timedOut' && javascript !== 'timedOut' && dotnet !== javascript };
      }),
      deadlineMs: this.runner.deadlineMs,
    };
  }
}

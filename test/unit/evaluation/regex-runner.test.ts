import { translateDotnetRegex, subjectKey, type TranslatedRegex } from '../../../src/domain/evaluation';
import { MATCH_NO, MATCH_TIMEOUT, MATCH_YES, RegexRunner } from '../../../src/services/evaluation/regex-runner';

function translated(pattern: string): TranslatedRegex {
  const t = translateDotnetRegex(pattern);
  if (!t.ok) throw new Error(t.reason);
  return t.regex;
}

describe('regex runner: subjects with many different non-ASCII character sets', () => {
  const runner = new RegexRunner({ deadlineMs: 1000 });
  afterAll(() => runner.close());

  it('keeps answering right when batches hold more character sets than the worker keeps', async () => {
    const table = { patterns: [translated('\\bNEHD\\b'), translated('^\\w+\\.NEHD$')], sets: [[0, 1]] };
    const letters = [...'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîï'];
    const subjects = letters.flatMap((l) => [`Z${l}NEHD`, `${l}.NEHD`]);
    for (let round = 0; round < 2; round++) {
      const results = await runner.run(table, subjects.map((subject) => ({ subject, key: subjectKey(subject), set: 0 })));
      expect(results.map((r) => [...r])).toEqual(letters.flatMap(() => [[MATCH_NO, MATCH_NO], [MATCH_YES, MATCH_YES]]));
    }
  });
});

describe('regex runner: a per-match deadline against catastrophic backtracking', () => {
  const runner = new RegexRunner({ deadlineMs: 50 });
  afterAll(() => runner.close());

  it('a match past the deadline counts as no match and is reported; the rest of the batch still runs', async () => {
    const table = { patterns: [translated('web'), translated('(a+)+$'), translated('\\bNEHD\\b')], sets: [[0, 1, 2]] };
    const evil = `${'a'.repeat(40)}!`;
    const subjects = ['Movie.WEB.NEHD', evil, 'Movie.ZØNEHD.web'];
    const results = await runner.run(
      table,
      subjects.map((subject) => ({ subject, key: subjectKey(subject), set: 0 })),
    );
    expect(results.map((r) => [...r])).toEqual([
      [MATCH_YES, MATCH_NO, MATCH_YES],
      [MATCH_NO, MATCH_TIMEOUT, MATCH_NO],
      [MATCH_YES, MATCH_TIMEOUT, MATCH_NO], // quarantined from then on (see below)
    ]);
    expect(runner.timeouts).toBe(1);
    // The pattern is quarantined for this table: other subjects report it timed out without running it.
    const quarantined = await runner.run(table, [`${'a'.repeat(41)}!`, 'web'].map((subject) => ({ subject, key: '', set: 0 })));
    expect(quarantined.map((r) => [...r])).toEqual([
      [MATCH_NO, MATCH_TIMEOUT, MATCH_NO],
      [MATCH_YES, MATCH_TIMEOUT, MATCH_NO],
    ]);
    expect(runner.timeouts).toBe(1);
    // Another table (a new database cache state) runs it again.
    const fresh = { patterns: table.patterns, sets: table.sets };
    const again0 = await runner.run(fresh, [{ subject: 'aaa', key: '', set: 0 }]);
    expect([...again0[0]]).toEqual([MATCH_NO, MATCH_YES, MATCH_NO]);
    // The runner keeps working after a timed-out worker was replaced.
    const again = await runner.run(fresh, [{ subject: 'web', key: '', set: 0 }]);
    expect([...again[0]]).toEqual([MATCH_YES, MATCH_NO, MATCH_NO]);
  });
});

import { applyFieldEdits, modelOf } from '../../../src/domain/pcd';
import { customFormatChanges, type CustomFormat } from '../../../web/src/pages/configuration/editors/custom-format/model';

// The custom-format editor saves a draft as field edits; applied by the API's own function
// (applyFieldEdits), they must give exactly the draft.

const format: CustomFormat = {
  name: 'x265 (HD)',
  description: 'HEVC below 2160p',
  includeInRename: false,
  tags: ['Codec'],
  conditions: [
    { name: 'x265', type: 'release_title', arrType: 'all', negate: false, required: true, regularExpression: 'x265' },
    { name: 'Not 2160p', type: 'resolution', arrType: 'all', negate: true, required: true, resolution: '2160p' },
    { name: 'v1.0 Big', type: 'size', arrType: 'movie_app', negate: false, required: false, minBytes: null, maxBytes: 10 * 1024 ** 3 },
  ],
  tests: [],
};

const applied = (draft: CustomFormat) => applyFieldEdits(modelOf('custom_format'), format, customFormatChanges(format, draft).map((c) => ({ path: c.path, value: c.value })));

describe('custom-format field edits', () => {
  it('no change, no edit', () => {
    expect(customFormatChanges(format, structuredClone(format))).toEqual([]);
  });

  it('details and a condition field (a dot in a condition name escaped)', () => {
    const draft = structuredClone(format);
    draft.description = null;
    draft.tags = ['Codec', 'HD'];
    draft.conditions[1].negate = false;
    draft.conditions[2].minBytes = 1024 ** 3;
    expect(customFormatChanges(format, draft).map((c) => c.path)).toEqual(['description', 'tags', 'conditions.Not 2160p.negate', 'conditions.v1\\.0 Big.minBytes']);
    expect(applied(draft)).toEqual(draft);
  });

  it('a condition whose type changed is sent whole (its fields are another type\'s)', () => {
    const draft = structuredClone(format);
    draft.conditions[1] = { name: 'Not 2160p', type: 'source', arrType: 'movie_app', negate: true, required: true, source: 'bluray' };
    expect(customFormatChanges(format, draft)).toEqual([{ path: 'conditions.Not 2160p', value: draft.conditions[1] }]);
    expect(applied(draft)).toEqual(draft);
  });

  it('added, removed and renamed conditions', () => {
    const draft = structuredClone(format);
    draft.conditions = [
      { ...format.conditions[0], name: 'HEVC' },
      format.conditions[2],
      { name: 'Recent', type: 'year', arrType: 'all', negate: false, required: false, minYear: 2020, maxYear: null },
    ];
    expect(applied(draft)).toEqual({ ...draft, conditions: expect.arrayContaining(draft.conditions) });
    expect((applied(draft) as unknown as CustomFormat).conditions).toHaveLength(3);
  });
});

import { ARR_TYPE_ALIASES, ARR_TYPES, toPcdArrType } from '../../../src/domain/arr-types';
import { entityTypeAliases, otherSpelling } from '../../../src/domain/entity-type-aliases';
import { PORTABLE_TYPES, RESOLVED_ENTITY_TYPES } from '../../../src/domain/pcd';
import { describeZodError } from '../../../src/api/http/validation';
import { waitMs } from '../../../src/api/http/wait';
import { aliasedEnum } from '../../../src/api/http/zod';
import { ArrTypeOrAllSchema, ArrTypeSchema } from '../../../src/api/schemas/common';
import { PortableTypeSchema, ResolvedEntityTypeSchema } from '../../../src/api/schemas/pcd';

function refusal(schema: { safeParse(value: unknown): { success: boolean; error?: unknown } }, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`${String(value)} was accepted`);
  return describeZodError('query', result.error as never);
}

describe('entity-type spellings', () => {
  it('gives the other spelling of a name, and none for a one-word name', () => {
    expect(otherSpelling('quality_profile')).toBe('qualityProfile');
    expect(otherSpelling('qualityProfile')).toBe('quality_profile');
    expect(otherSpelling('music_app_metadata_profile')).toBe('musicAppMetadataProfile');
    expect(otherSpelling('musicAppMetadataProfile')).toBe('music_app_metadata_profile');
    expect(otherSpelling('naming')).toBeNull();
  });

  it('maps each alias to a value of the vocabulary, never to another vocabulary', () => {
    expect(entityTypeAliases(RESOLVED_ENTITY_TYPES)).toEqual({
      delay_profile: 'delayProfile',
      regular_expression: 'regularExpression',
      custom_format: 'customFormat',
      quality_profile: 'qualityProfile',
      media_settings: 'mediaSettings',
      quality_definitions: 'qualityDefinitions',
      music_app_metadata_profile: 'musicAppMetadataProfile',
    });
    const portable = entityTypeAliases(PORTABLE_TYPES);
    expect(portable.qualityProfile).toBe('quality_profile');
    expect(portable.movieAppNaming).toBe('movie_app_naming');
    expect(Object.keys(portable)).toHaveLength(PORTABLE_TYPES.length);
  });

  it('maps every app family alias the PCD uses back to the API name', () => {
    for (const arrType of ARR_TYPES) expect(ARR_TYPE_ALIASES[toPcdArrType(arrType)]).toBe(arrType);
  });
});

describe('aliased request enums', () => {
  it('answer the canonical value for either spelling', () => {
    expect(ResolvedEntityTypeSchema.parse('quality_profile')).toBe('qualityProfile');
    expect(ResolvedEntityTypeSchema.parse('qualityProfile')).toBe('qualityProfile');
    expect(PortableTypeSchema.parse('customFormat')).toBe('custom_format');
    expect(ArrTypeSchema.parse('radarr')).toBe('movie_app');
    expect(ArrTypeSchema.parse('series_app')).toBe('series_app');
    expect(ArrTypeOrAllSchema.parse('lidarr')).toBe('music_app');
    expect(ArrTypeOrAllSchema.parse('all')).toBe('all');
  });

  it('refuse anything else, listing every accepted form', () => {
    expect(refusal(ArrTypeSchema, 'tv_app')).toBe('Invalid request: query must be one of: movie_app (or radarr), series_app (or sonarr), music_app (or lidarr)');
    expect(refusal(ArrTypeOrAllSchema, 'every')).toBe('Invalid request: query must be one of: movie_app (or radarr), series_app (or sonarr), music_app (or lidarr), all');
    expect(refusal(ResolvedEntityTypeSchema, 'widget')).toBe(
      'Invalid request: query must be one of: delayProfile (or delay_profile), regularExpression (or regular_expression), customFormat (or custom_format), qualityProfile (or quality_profile), naming, mediaSettings (or media_settings), qualityDefinitions (or quality_definitions), musicAppMetadataProfile (or music_app_metadata_profile)',
    );
    // Object.prototype names are no aliases.
    expect(refusal(aliasedEnum(['a'], { b: 'a' }), 'constructor')).toBe('Invalid request: query must be one of: a (or b)');
    expect(refusal(ArrTypeSchema, 7)).toBe('Invalid request: query must be a string, got number');
  });
});

describe('wait query parameters', () => {
  it('wait for 60 s by default, for waitSeconds when given, and not at all without wait=true', () => {
    expect(waitMs({})).toBe(0);
    expect(waitMs({ wait: false })).toBe(0);
    expect(waitMs({ wait: true })).toBe(60_000);
    expect(waitMs({ wait: true, waitSeconds: 5 })).toBe(5_000);
    expect(() => waitMs({ waitSeconds: 5 })).toThrow('Invalid request: query.waitSeconds needs wait=true');
    expect(() => waitMs({ wait: false, waitSeconds: 5 })).toThrow('Invalid request: query.waitSeconds needs wait=true');
  });
});

/**
 * Every custom format specification implementation an app offers can be created with valid values,
 * and the stored formats (and the profiles scoring them) still validate against the OpenAPI documents.
 */
import { startEmulator } from '../../../src/emulators';
import { describeWithShared } from '../../helpers/shared-data';
import { loadOpenApi, OPENAPI_PARTS } from './openapi';
import { API_KEY, APPS, call } from './support';

const EXPECTED_IMPLEMENTATIONS = {
  radarr: [
    'ReleaseTitleSpecification',
    'EditionSpecification',
    'LanguageSpecification',
    'IndexerFlagSpecification',
    'SourceSpecification',
    'ResolutionSpecification',
    'QualityModifierSpecification',
    'SizeSpecification',
    'ReleaseGroupSpecification',
    'YearSpecification',
  ],
  sonarr: [
    'ReleaseTitleSpecification',
    'LanguageSpecification',
    'IndexerFlagSpecification',
    'SourceSpecification',
    'ResolutionSpecification',
    'SizeSpecification',
    'ReleaseGroupSpecification',
    'ReleaseTypeSpecification',
  ],
  lidarr: ['ReleaseTitleSpecification', 'IndexerFlagSpecification', 'SizeSpecification', 'ReleaseGroupSpecification'],
};

/** A valid value for each field of a specification schema. */
function validFields(spec: any) {
  return spec.fields.map((field: any) => {
    if (field.type === 'textbox') return { name: field.name, value: '\\bx265\\b' };
    if (field.type === 'checkbox') return { name: field.name, value: false };
    if (field.type === 'select') return { name: field.name, value: field.selectOptions.find((option: any) => option.value > 0).value };
    // number fields: size in GB (min < max) or years (min > 0, max >= min)
    const isMin = field.name === 'min';
    if (field.isFloat) return { name: field.name, value: isMin ? 1.5 : 20 };
    return { name: field.name, value: isMin ? 1990 : 2020 };
  });
}

describeWithShared(OPENAPI_PARTS, 'custom format specifications', () => {
  test.each(APPS)('%s: every implementation round-trips and validates', async (app) => {
    const api = loadOpenApi(app);
    const emulator = await startEmulator({ app, apiKey: API_KEY });
    try {
      const { body: schema } = await call(emulator, 'GET', '/customformat/schema');
      expect(schema.map((spec: any) => spec.implementation)).toEqual(EXPECTED_IMPLEMENTATIONS[app]);
      const specifications = schema.map((spec: any) => ({
        name: spec.implementationName,
        implementation: spec.implementation,
        negate: spec.implementation === 'SizeSpecification',
        required: false,
        fields: validFields(spec),
      }));
      for (const specification of specifications) {
        const created = await call(emulator, 'POST', '/customformat', { name: `Only ${specification.implementation}`, specifications: [specification] });
        expect([specification.implementation, created.status]).toEqual([specification.implementation, 201]);
        const stored = created.body.specifications[0];
        for (const field of specification.fields) {
          expect(stored.fields.find((candidate: any) => candidate.name === field.name).value).toEqual(field.value);
        }
      }
      const all = await call(emulator, 'POST', '/customformat', { name: 'Everything', includeCustomFormatWhenRenaming: true, specifications });
      expect(all.status).toBe(201);
      expect(api.checkResponse('POST', '/customformat', all.body)).toEqual([]);
      const { body: formats } = await call(emulator, 'GET', '/customformat');
      expect(formats).toHaveLength(specifications.length + 1);
      expect(api.checkResponse('GET', '/customformat', formats)).toEqual([]);
      expect(api.checkResponse('GET', '/qualityprofile', (await call(emulator, 'GET', '/qualityprofile')).body)).toEqual([]);
      // A stored format can be sent back unchanged.
      const again = await call(emulator, 'PUT', `/customformat/${all.body.id}`, all.body);
      expect(again.status).toBe(202);
      expect(again.body).toEqual(all.body);
      expect(api.checkRequest('PUT', '/customformat/{id}', all.body)).toEqual([]);
      expect(emulator.writes.count('customformat', 'POST')).toBe(specifications.length + 1);
    } finally {
      await emulator.close();
    }
  });

  test('numbers given as strings are read leniently, as the apps do for select and number fields', async () => {
    const emulator = await startEmulator({ app: 'radarr', apiKey: API_KEY });
    try {
      const created = await call(emulator, 'POST', '/customformat', {
        name: '2160p',
        specifications: [{ name: 'Resolution', implementation: 'ResolutionSpecification', fields: [{ name: 'value', value: '2160' }] }],
      });
      expect(created.status).toBe(201);
      expect(created.body.specifications[0].fields[0].value).toBe(2160);
      const missing = await call(emulator, 'POST', '/customformat', {
        name: 'No value',
        specifications: [{ name: 'Resolution', implementation: 'ResolutionSpecification', fields: [] }],
      });
      expect(missing.status).toBe(400);
      expect(missing.body[0]).toMatchObject({ propertyName: 'Value', errorMessage: "'Value' must not be empty." });
    } finally {
      await emulator.close();
    }
  });
});

/**
 * Real-world data: every TRaSH Guides custom format (the JSON recyclarr and notifiarr sync into the
 * apps every day) is accepted by the matching emulator, through the typed client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ArrClient, type CustomFormatPayload } from '../../../src/clients';
import { startEmulator } from '../../../src/emulators';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';
import { loadOpenApi } from './openapi';
import { API_KEY } from './support';

const PARTS = ['data', 'trash-guides', 'docs', 'json'];

interface TrashFormat {
  name: string;
  includeCustomFormatWhenRenaming?: boolean;
  specifications: { name: string; implementation: string; negate: boolean; required: boolean; fields: Record<string, unknown> }[];
}

function trashFormats(app: 'radarr' | 'sonarr'): TrashFormat[] {
  const dir = sharedPath(...PARTS, app, 'cf');
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as TrashFormat);
}

/** TRaSH keeps fields as an object; the apps take a list of {name, value}. */
function toPayload(format: TrashFormat): CustomFormatPayload {
  return {
    name: format.name,
    includeCustomFormatWhenRenaming: format.includeCustomFormatWhenRenaming ?? false,
    specifications: format.specifications.map((spec) => ({
      name: spec.name,
      implementation: spec.implementation,
      negate: spec.negate,
      required: spec.required,
      fields: Object.entries(spec.fields).map(([name, value]) => ({ name, value })),
    })),
  };
}

describeWithShared(PARTS, 'TRaSH Guides custom formats', () => {
  test.each([
    ['radarr', 'movie_app'],
    ['sonarr', 'series_app'],
  ] as const)('%s accepts all of them, and a profile scoring all of them', async (app, arrType) => {
    const formats = trashFormats(app);
    expect(formats.length).toBeGreaterThan(200);
    const emulator = await startEmulator({ app, apiKey: API_KEY });
    try {
      const client = new ArrClient(arrType, { arrType, baseUrl: emulator.baseUrl, apiKey: API_KEY }, 5000);
      for (const format of formats) {
        const created = await client.createCustomFormat(toPayload(format));
        expect(created.name).toBe(format.name);
      }
      expect(emulator.writes.count('customformat', 'POST')).toBe(formats.length);
      const [profile] = await client.listQualityProfiles();
      expect(profile.formatItems).toHaveLength(formats.length);
      const scored = await client.updateQualityProfile({ ...profile, formatItems: profile.formatItems.map((item, index) => ({ ...item, score: index % 7 })) });
      expect(scored.formatItems.reduce((sum, item) => sum + item.score, 0)).toBeGreaterThan(0);
      if (fs.existsSync(sharedPath('data', 'openapi', `${app}.json`))) {
        const api = loadOpenApi(app);
        expect(api.checkResponse('GET', '/customformat', await client.listCustomFormats())).toEqual([]);
        for (const entry of emulator.writes.log) {
          const template = entry.path.slice(api.apiBase.length).replace(/\/\d+$/, '/{id}');
          expect(api.checkRequest(entry.method, template, entry.body)).toEqual([]);
        }
      }
    } finally {
      await emulator.close();
    }
  });
});

import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { startArrgo, type Harness } from '../helpers/harness';

/**
 * One name per thing, and ids a client can map: entity types and app families take either
 * spelling in paths and queries and are answered in the spec's; the ids evaluation results are
 * keyed by are in the resolved list and the export, and the evaluation names its formats.
 */
describe('entity names and ids across endpoints (sample PCD)', () => {
  let h: Harness;
  let databaseId: number;
  let radarr: FleetInstance;

  beforeAll(async () => {
    h = await startArrgo();
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    radarr = await addInstance(h, 'movie_app', { name: 'radarr main', databaseId });
  });
  afterAll(async () => {
    await h?.close();
    await radarr?.emulator.close();
  });

  describe('aliases', () => {
    it('resolved reads take quality_profile for qualityProfile and radarr for movie_app, and answer in the spec form (same body, same ETag)', async () => {
      const canonical = await h.get(`/pcd/${databaseId}/resolved/qualityProfile`);
      const aliased = await h.get(`/pcd/${databaseId}/resolved/quality_profile`);
      expect([aliased.status, aliased.body.entityType]).toEqual([200, 'qualityProfile']);
      expect(aliased.text).toBe(canonical.text);
      expect(aliased.headers.get('etag')).toBe(canonical.headers.get('etag'));
      expect(aliased.body.entities.map((e: { entityType: string }) => e.entityType)).toEqual(canonical.body.entities.map(() => 'qualityProfile'));

      const naming = await h.get(`/pcd/${databaseId}/resolved/naming?arrType=movie_app`);
      const namingRadarr = await h.get(`/pcd/${databaseId}/resolved/naming?arrType=radarr`);
      expect(namingRadarr.status).toBe(200);
      expect(namingRadarr.text).toBe(naming.text);
      const settings = await h.get(`/pcd/${databaseId}/resolved/media_settings?arrType=sonarr`);
      expect([settings.status, settings.body.entityType]).toEqual([200, 'mediaSettings']);
      expect(settings.text).toBe((await h.get(`/pcd/${databaseId}/resolved/mediaSettings?arrType=series_app`)).text);
      // Each item names its portable type, which the export, import and edit routes take.
      expect(new Set(canonical.body.entities.map((e: { portableType: string }) => e.portableType))).toEqual(new Set(['quality_profile']));
      expect(naming.body.entities[0].portableType).toBe('movie_app_naming');
      expect(settings.body.entities[0].portableType).toBe('series_app_media_settings');
    });

    it('edits, exports and imports take customFormat for custom_format, and answer custom_format', async () => {
      const exported = await h.get(`/pcd/export?databaseId=${databaseId}&entityType=customFormat&name=Atmos`);
      expect([exported.status, exported.body.entityType, exported.body.data.name]).toEqual([200, 'custom_format', 'Atmos']);
      expect(exported.text).toBe((await h.get(`/pcd/export?databaseId=${databaseId}&entityType=custom_format&name=Atmos`)).text);

      const edit = await h.patch(`/pcd/${databaseId}/entities/customFormat/Atmos`, { changes: [{ path: 'description', value: 'Edited through the camelCase type' }] });
      expect([edit.status, edit.body]).toEqual([200, { success: true, changed: true }]);
      const after = await h.get(`/pcd/export?databaseId=${databaseId}&entityType=custom_format&name=Atmos`);
      expect(after.body.data.description).toBe('Edited through the camelCase type');

      const imported = await h.post('/pcd/import', { databaseId, layer: 'user', entityType: 'regularExpression', data: { name: 'Aliased', pattern: '\\bALIAS\\b', regex101Id: null, description: null, tags: [] } });
      expect([imported.status, imported.body]).toEqual([200, { success: true }]);
      const ops = (await h.get(`/pcd/${databaseId}/user-ops`)).body;
      expect(ops.at(-1).target).toEqual({ portableType: 'regular_expression', name: 'Aliased' });
      expect((await h.del(`/pcd/${databaseId}/entities/regularExpression/Aliased`)).status).toBe(204);
    });

    it('the graph, compare and every arrType filter take the other spelling too', async () => {
      const graph = await h.get(`/pcd/${databaseId}/graph?arrType=radarr&nodeKind=customFormat`);
      expect(graph.status).toBe(200);
      expect(graph.text).toBe((await h.get(`/pcd/${databaseId}/graph?arrType=movie_app&nodeKind=custom_format`)).text);
      expect(graph.body.nodes.some((n: { kind: string }) => n.kind === 'custom_format')).toBe(true);
      // The filter applied: the graph without it is another one.
      expect(graph.text).not.toBe((await h.get(`/pcd/${databaseId}/graph?arrType=movie_app`)).text);

      const compare = await h.get(`/pcd/${databaseId}/resolved/quality_profile/${encodeURIComponent('Movies 1080p')}/compare?instanceIds=${radarr.id}`);
      expect([compare.status, compare.body.entityType, compare.body.instances[0].arrType]).toEqual([200, 'qualityProfile', 'movie_app']);

      const instances = await h.get('/instances?arrType=radarr');
      expect(instances.body.items.map((i: { id: number; arrType: string }) => [i.id, i.arrType])).toEqual([[radarr.id, 'movie_app']]);
      expect((await h.get('/instances?arrType=sonarr')).body.items).toEqual([]);
      for (const filter of ['/sync-history?arrType=radarr', '/timeline?arrType=radarr', '/canary/rollouts?arrType=radarr']) {
        expect([filter, (await h.get(filter)).status]).toEqual([filter, 200]);
      }
    });

    it('refuses anything else with a message that lists every accepted form', async () => {
      const entity = await h.get(`/pcd/${databaseId}/resolved/widget`);
      expect([entity.status, entity.body.error]).toEqual([
        400,
        'Invalid request: params.entityType must be one of: delayProfile (or delay_profile), regularExpression (or regular_expression), customFormat (or custom_format), qualityProfile (or quality_profile), naming, mediaSettings (or media_settings), qualityDefinitions (or quality_definitions), musicAppMetadataProfile (or music_app_metadata_profile)',
      ]);
      const arrType = await h.get('/sync-history?arrType=tv');
      expect([arrType.status, arrType.body.error]).toEqual([400, 'Invalid request: query.arrType must be one of: movie_app (or radarr), series_app (or sonarr), music_app (or lidarr)']);
      const portable = await h.get(`/pcd/export?databaseId=${databaseId}&entityType=customformat&name=Atmos`);
      expect(portable.status).toBe(400);
      expect(portable.body.error).toContain('query.entityType must be one of: regular_expression (or regularExpression), custom_format (or customFormat), quality_profile (or qualityProfile),');
    });

    it('documents the canonical values and names the aliases in the OpenAPI document', async () => {
      const schemas = (await h.get('/openapi.json')).body.components.schemas;
      expect(schemas.ArrType).toMatchObject({ type: 'string', enum: ['movie_app', 'series_app', 'music_app'] });
      expect(schemas.ArrType.description).toContain('movie_app as radarr, series_app as sonarr, music_app as lidarr');
      expect(schemas.ResolvedEntityType.enum).toEqual(['delayProfile', 'regularExpression', 'customFormat', 'qualityProfile', 'naming', 'mediaSettings', 'qualityDefinitions', 'musicAppMetadataProfile']);
      expect(schemas.ResolvedEntityType.description).toContain('qualityProfile as quality_profile');
      expect(schemas.PortableEntityType.description).toContain('quality_profile as qualityProfile');
    });
  });

  describe('custom-format ids', () => {
    it('are in the resolved list and the export, beside the portable data, and key the evaluation, which names them', async () => {
      const list = (await h.get(`/pcd/${databaseId}/resolved/customFormat`)).body.entities as { name: string; id: number; entity: Record<string, unknown> }[];
      expect(list.length).toBeGreaterThan(3);
      for (const format of list) {
        expect(format.id).toEqual(expect.any(Number));
        expect(format.entity).not.toHaveProperty('id');
      }
      const ids = new Map(list.map((f) => [f.name, f.id]));
      expect(new Set(ids.values()).size).toBe(list.length);

      const exported = await h.get(`/pcd/export?databaseId=${databaseId}&entityType=custom_format&name=Atmos`);
      expect(exported.body).toMatchObject({ entityType: 'custom_format', id: ids.get('Atmos'), data: { name: 'Atmos' } });
      expect(exported.body.data).not.toHaveProperty('id');
      // An export goes back into an import as it is: its id is the source database's and is ignored.
      const copy = await h.post('/pcd/import', { databaseId, layer: 'user', ...exported.body, data: { ...exported.body.data, name: 'Atmos (copy)' } });
      expect([copy.status, copy.body]).toEqual([200, { success: true }]);
      const copied = await h.get(`/pcd/export?databaseId=${databaseId}&entityType=custom_format&name=${encodeURIComponent('Atmos (copy)')}`);
      expect(copied.body.id).not.toBe(ids.get('Atmos'));
      expect((await h.del(`/pcd/${databaseId}/entities/custom_format/${encodeURIComponent('Atmos (copy)')}`)).status).toBe(204);

      const title = 'Movie.2021.1080p.BluRay.TrueHD.Atmos.7.1.x265-GROUP';
      const evaluated = await h.post('/entity-testing/evaluate', { databaseId, releases: [{ id: 1, title, type: 'movie' }] });
      expect(evaluated.status).toBe(200);
      const { customFormats, evaluations } = evaluated.body;
      expect(Object.keys(customFormats).sort()).toEqual(Object.keys(evaluations[0].cfMatches).sort());
      for (const [id, name] of Object.entries<string>(customFormats)) expect([name, ids.get(name)]).toEqual([name, Number(id)]);
      expect(customFormats[String(ids.get('Atmos'))]).toBe('Atmos');
      expect(evaluations[0].cfMatches[String(ids.get('Atmos'))]).toBe(true);
      expect(evaluations[0].cfMatches[String(ids.get('Cam'))]).toBe(false);

      const parsedOnly = await h.post('/entity-testing/evaluate', { releases: [{ id: 1, title, type: 'movie' }] });
      expect(parsedOnly.body.customFormats).toEqual({});
      const doc = (await h.get('/openapi.json')).body.components.schemas;
      expect(doc.EvaluateResponse.required).toContain('customFormats');
      expect(doc.ResolvedEntity.properties.id.description).toContain('cfMatches');
      expect(doc.PortableEntity.properties.id.description).toContain('an import ignores it');
    });
  });
});

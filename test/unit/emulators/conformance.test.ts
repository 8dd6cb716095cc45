/**
 * The emulators' request wire types and the clients' request shapes declare exactly the properties
 * (and enum values) of the apps' OpenAPI component schemas.
 */
import { APP_FACTS } from '../../../src/emulators/apps';
import type { Wire } from '../../../src/emulators/binding';
import {
  customFormatWire,
  delayProfileWire,
  fieldWire,
  formatItemWire,
  metadataProfileWire,
  qualityDefinitionWire,
  qualityItemWire,
  qualityProfileWire,
  specificationWire,
  tagWire,
} from '../../../src/emulators/wires';
import { SHAPES, type Shape } from '../../../src/clients/shapes';
import { describeWithShared } from '../../helpers/shared-data';
import { loadOpenApi, OPENAPI_PARTS } from './openapi';
import { APPS } from './support';

const ARR_TYPE = { radarr: 'movie_app', sonarr: 'series_app', lidarr: 'music_app' } as const;

type ObjectWire = Wire & { kind: 'object' };

function propsOf(wire: ObjectWire): string[] {
  return Object.keys(wire.props).sort();
}

function child(wire: Wire): Wire {
  if (wire.kind === 'array' || wire.kind === 'nullable') return child(wire.of);
  return wire;
}

describeWithShared(OPENAPI_PARTS, 'wire types and request shapes agree with the OpenAPI documents', () => {
  test.each(APPS)('%s emulator wires', (app) => {
    const facts = APP_FACTS[app];
    const api = loadOpenApi(app);
    const expectProps = (schema: string, wire: Wire) => {
      expect([schema, propsOf(child(wire) as ObjectWire)]).toEqual([schema, api.schemaProperties(schema).sort()]);
    };
    const field = fieldWire(facts);
    expectProps('CustomFormatResource', customFormatWire(facts));
    expectProps('CustomFormatSpecificationSchema', specificationWire(facts));
    expectProps('Field', field);
    expectProps('SelectOption', field.props.selectOptions);
    expectProps('QualityProfileResource', qualityProfileWire(facts));
    expectProps('QualityProfileQualityItemResource', qualityItemWire(facts));
    expectProps('ProfileFormatItemResource', formatItemWire);
    expectProps('Quality', facts.qualityWire);
    expectProps('QualityDefinitionResource', qualityDefinitionWire(facts));
    expectProps('DelayProfileResource', delayProfileWire);
    expectProps('TagResource', tagWire);
    expectProps('NamingConfigResource', facts.naming.wire);
    expectProps('MediaManagementConfigResource', facts.mediaManagement.wire);
    if (facts.metadataProfiles) {
      expectProps('MetadataProfileResource', metadataProfileWire);
      expectProps('ProfilePrimaryAlbumTypeItemResource', metadataProfileWire.props.primaryAlbumTypes);
      expectProps('ProfileReleaseStatusItemResource', metadataProfileWire.props.releaseStatuses);
    }

    // Enumerations: names in numeric order, as in the documents.
    const enums: [Wire, string][] = [
      [delayProfileWire.props.preferredProtocol, 'DownloadProtocol'],
      [field.props.privacy, 'PrivacyLevel'],
      [facts.mediaManagement.wire.props.downloadPropersAndRepacks, 'ProperDownloadTypes'],
      [facts.mediaManagement.wire.props.fileDate, 'FileDateType'],
      [facts.mediaManagement.wire.props.rescanAfterRefresh, 'RescanAfterRefreshType'],
    ];
    if (facts.qualityWire.props.source) enums.push([facts.qualityWire.props.source, 'QualitySource']);
    if (facts.qualityWire.props.modifier) enums.push([facts.qualityWire.props.modifier, 'Modifier']);
    if (app === 'radarr') enums.push([facts.naming.wire.props.colonReplacementFormat, 'ColonReplacementFormat']);
    if (app === 'sonarr') enums.push([facts.mediaManagement.wire.props.episodeTitleRequired, 'EpisodeTitleRequiredType']);
    if (app === 'lidarr') enums.push([facts.mediaManagement.wire.props.allowFingerprinting, 'AllowFingerprinting']);
    for (const [wire, schema] of enums) {
      expect(wire.kind).toBe('enum');
      expect([schema, (wire as { names: readonly string[] }).names]).toEqual([schema, api.schema(schema).enum]);
    }
  });

  test.each(APPS)('%s client request shapes', (app) => {
    const api = loadOpenApi(app);
    const shapes = SHAPES[ARR_TYPE[app]];
    const keysOf = (shape: Shape) => Object.keys(shape).sort();
    const nested = (shape: Shape, prop: string): Shape => {
      const spec = shape[prop] as Shape | { list: Shape };
      return 'list' in spec ? (spec.list as Shape) : (spec as Shape);
    };
    const expectKeys = (schema: string, shape: Shape) => expect([schema, keysOf(shape)]).toEqual([schema, api.schemaProperties(schema).sort()]);
    expectKeys('CustomFormatResource', shapes.customFormat);
    const specification = nested(shapes.customFormat, 'specifications');
    expectKeys('CustomFormatSpecificationSchema', { ...specification, presets: true });
    const field = nested(specification, 'fields');
    expectKeys('Field', field);
    expectKeys('SelectOption', nested(field, 'selectOptions'));
    expectKeys('QualityProfileResource', shapes.qualityProfile);
    const item = nested(shapes.qualityProfile, 'items');
    expectKeys('QualityProfileQualityItemResource', item);
    expectKeys('Quality', nested(item, 'quality'));
    expectKeys('ProfileFormatItemResource', nested(shapes.qualityProfile, 'formatItems'));
    expectKeys('QualityDefinitionResource', shapes.qualityDefinition);
    expectKeys('DelayProfileResource', shapes.delayProfile);
    expectKeys('TagResource', shapes.tag);
    expectKeys('NamingConfigResource', shapes.naming);
    expectKeys('MediaManagementConfigResource', shapes.mediaManagement);
    if (shapes.metadataProfile) {
      expectKeys('MetadataProfileResource', shapes.metadataProfile);
      expectKeys('ProfileSecondaryAlbumTypeItemResource', nested(shapes.metadataProfile, 'secondaryAlbumTypes'));
    }
  });
});

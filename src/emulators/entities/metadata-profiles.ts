/**
 * Lidarr /metadataprofile: list, get, create, update, delete, schema. The name "None" is reserved
 * (the app's empty profile, which cannot be deleted); each list needs at least one allowed entry.
 * Names are unique (a database index: 409 on a duplicate).
 */
import type { MetadataProfileResource } from '../../domain/app-resources';
import { PRIMARY_ALBUM_TYPES, RELEASE_STATUSES, SECONDARY_ALBUM_TYPES } from '../apps/lidarr';
import { httpErrors } from '../http-errors';
import { renderMetadataProfiles } from '../render';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import { failure, rules, type Failure } from '../validation/failures';
import { metadataProfileWire } from '../wires';
import { accepted, created, deleted, ok, refuseInsertWithId, requireValidRouteId, validateForPost, validateForPut } from './rest';

interface TypeRef {
  id: number;
  name: string | null;
}
interface BoundProfile {
  id: number;
  name: string | null;
  primaryAlbumTypes: { albumType: TypeRef | null; allowed: boolean }[] | null;
  secondaryAlbumTypes: { albumType: TypeRef | null; allowed: boolean }[] | null;
  releaseStatuses: { releaseStatus: TypeRef | null; allowed: boolean }[] | null;
}

const NONE = 'None';

function listRule(property: string, list: { allowed: boolean }[] | null, message: string, code: string): Failure[] {
  return [...rules.notEmpty(property, list), ...rules.custom(property, Array.isArray(list) && list.some((item) => item.allowed), message, list, code)];
}

function sharedRules(profile: BoundProfile): Failure[] {
  return [
    ...(profile.name === NONE ? [failure('Name', "'None' is a reserved profile name", profile.name, 'NotEqualValidator')] : []),
    ...rules.notEmpty('Name', profile.name),
    ...listRule('PrimaryAlbumTypes', profile.primaryAlbumTypes, 'Must have at least one allowed primary type', 'PrimaryTypeValidator`1'),
    ...listRule('SecondaryAlbumTypes', profile.secondaryAlbumTypes, 'Must have at least one allowed secondary type', 'SecondaryTypeValidator`1'),
    ...listRule('ReleaseStatuses', profile.releaseStatuses, 'Must have at least one allowed release status', 'ReleaseStatusValidator`1'),
  ];
}

/** ToModel: types are looked up by id (the name sent is ignored; unknown ids throw). */
function lookup(all: { id: number; name: string }[], ref: TypeRef | null) {
  if (!ref) throw httpErrors.unhandled('System.NullReferenceException', 'Object reference not set to an instance of an object.');
  const found = all.find((type) => type.id === ref.id);
  if (!found) throw httpErrors.unhandled('System.ArgumentException', `Unknown type ${ref.id} (Parameter 'id')`);
  return { ...found };
}

function toStored(profile: BoundProfile, id: number): MetadataProfileResource {
  if (!profile.primaryAlbumTypes || !profile.secondaryAlbumTypes || !profile.releaseStatuses) {
    throw httpErrors.unhandled('System.NullReferenceException', 'Object reference not set to an instance of an object.');
  }
  return {
    id,
    name: profile.name ?? '',
    primaryAlbumTypes: profile.primaryAlbumTypes.map((item) => ({ albumType: lookup(PRIMARY_ALBUM_TYPES, item.albumType), allowed: item.allowed })),
    secondaryAlbumTypes: profile.secondaryAlbumTypes.map((item) => ({ albumType: lookup(SECONDARY_ALBUM_TYPES, item.albumType), allowed: item.allowed })),
    releaseStatuses: profile.releaseStatuses.map((item) => ({ releaseStatus: lookup(RELEASE_STATUSES, item.releaseStatus), allowed: item.allowed })),
  };
}

const render = (ctx: RequestContext, id: number) => renderMetadataProfiles(ctx.state).find((profile) => profile.id === id);

function schema() {
  const desc = <T extends { id: number }>(all: T[]) => [...all].sort((a, b) => b.id - a.id);
  return {
    primaryAlbumTypes: desc(PRIMARY_ALBUM_TYPES).map((albumType) => ({ albumType: { ...albumType }, allowed: false })),
    secondaryAlbumTypes: desc(SECONDARY_ALBUM_TYPES).map((albumType) => ({ albumType: { ...albumType }, allowed: false })),
    releaseStatuses: desc(RELEASE_STATUSES).map((releaseStatus) => ({ releaseStatus: { ...releaseStatus }, allowed: false })),
  };
}

export function metadataProfileRoutes(): Route[] {
  return [
    { method: 'GET', pattern: 'metadataprofile', handler: ({ state }) => ok(renderMetadataProfiles(state)) },
    { method: 'GET', pattern: 'metadataprofile/schema', handler: () => ok(schema()) },
    {
      method: 'GET',
      pattern: 'metadataprofile/{id}',
      handler: (ctx) => {
        const found = render(ctx, ctx.id!);
        if (!found) throw httpErrors.notFound();
        return ok(found);
      },
    },
    {
      method: 'POST',
      pattern: 'metadataprofile',
      kind: 'metadataprofile',
      handler: (ctx) => {
        const profile = ctx.body<BoundProfile>(metadataProfileWire);
        validateForPost(sharedRules(profile));
        const stored = toStored(profile, 0);
        refuseInsertWithId(profile);
        if (ctx.state.metadataProfiles.some((existing) => existing.name === stored.name)) throw httpErrors.constraint('MetadataProfiles', 'Name');
        stored.id = nextId(ctx.state, 'metadataProfiles');
        ctx.state.metadataProfiles.push(stored);
        ctx.touched(stored.id);
        return created(render(ctx, stored.id));
      },
    },
    {
      method: 'PUT',
      pattern: 'metadataprofile/{id?}',
      kind: 'metadataprofile',
      handler: (ctx) => {
        const profile = ctx.body<BoundProfile>(metadataProfileWire);
        validateForPut(ctx, profile, () => sharedRules(profile));
        const stored = toStored(profile, profile.id);
        const index = ctx.state.metadataProfiles.findIndex((existing) => existing.id === profile.id);
        if (index < 0) throw httpErrors.modelNotFound('MetadataProfile', profile.id);
        if (ctx.state.metadataProfiles.some((existing) => existing.name === stored.name && existing.id !== stored.id)) {
          throw httpErrors.constraint('MetadataProfiles', 'Name');
        }
        ctx.state.metadataProfiles[index] = stored;
        ctx.touched(stored.id);
        return accepted(render(ctx, stored.id));
      },
    },
    {
      method: 'DELETE',
      pattern: 'metadataprofile/{id}',
      kind: 'metadataprofile',
      handler: (ctx) => {
        const id = requireValidRouteId(ctx);
        const profile = ctx.state.metadataProfiles.find((candidate) => candidate.id === id);
        if (!profile) throw httpErrors.modelNotFound('MetadataProfile', id);
        if (profile.name === NONE) throw httpErrors.client(400, `Metadata profile [${NONE}] is in use.`);
        ctx.state.metadataProfiles = ctx.state.metadataProfiles.filter((candidate) => candidate.id !== id);
        ctx.touched(id);
        return deleted();
      },
    },
  ];
}

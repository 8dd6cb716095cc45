/**
 * /delayprofile: list, get, create, update, delete. Profile 1 is the global one: its tags must be
 * empty and it cannot be deleted (405); every other profile needs tags, and a tag may belong to one
 * profile only. New profiles are ordered after the existing ones; deleting renumbers the rest.
 */
import type { DelayProfileResource } from '../../domain/app-resources';
import { httpErrors } from '../http-errors';
import { renderDelayProfiles } from '../render';
import type { RequestContext, Route } from '../router';
import { nextId, type EmulatorState } from '../state';
import { failure, rules, type Failure } from '../validation/failures';
import { delayProfileWire } from '../wires';
import { accepted, created, deleted, ok, refuseInsertWithId, requireValidRouteId, validateForPost, validateForPut } from './rest';

/** The resource as bound: tags may be null (the app then fails mapping them). */
type BoundDelayProfile = Omit<DelayProfileResource, 'tags'> & { tags: number[] | null };

/** HashSet<int>: duplicates collapse, first occurrence order kept. */
const distinct = (tags: number[]) => [...new Set(tags)];

function sharedRules(state: EmulatorState, profile: BoundDelayProfile): Failure[] {
  const failures: Failure[] = [];
  if (profile.id !== 1) failures.push(...rules.notEmpty('Tags', profile.tags));
  if (profile.id === 1 && profile.tags !== null && profile.tags.length > 0) {
    failures.push(failure('Tags', 'Collection Must Be Empty', profile.tags, 'EmptyCollectionValidator`1'));
  }
  if (profile.tags && profile.tags.length > 0) {
    const tags = profile.tags;
    const inUse = state.delayProfiles.some((other) => other.id !== profile.id && other.tags.some((tag) => tags.includes(tag)));
    if (inUse) failures.push(failure('Tags', 'One or more tags is used in another profile', profile.tags, 'DelayProfileTagInUseValidator'));
  }
  failures.push(...rules.greaterThanOrEqual('UsenetDelay', profile.usenetDelay, 0), ...rules.greaterThanOrEqual('TorrentDelay', profile.torrentDelay, 0));
  if (!profile.enableUsenet && !profile.enableTorrent) failures.push(rules.objectLevel('Either Usenet or Torrent should be enabled'));
  return failures;
}

function toStored(profile: BoundDelayProfile, id: number, order: number): DelayProfileResource {
  if (profile.tags === null) throw httpErrors.unhandled('System.ArgumentNullException', "Value cannot be null. (Parameter 'collection')");
  return {
    id,
    enableUsenet: profile.enableUsenet,
    enableTorrent: profile.enableTorrent,
    preferredProtocol: profile.preferredProtocol,
    usenetDelay: profile.usenetDelay,
    torrentDelay: profile.torrentDelay,
    bypassIfHighestQuality: profile.bypassIfHighestQuality,
    bypassIfAboveCustomFormatScore: profile.bypassIfAboveCustomFormatScore,
    minimumCustomFormatScore: profile.minimumCustomFormatScore,
    order,
    tags: distinct(profile.tags),
  };
}

const render = (ctx: RequestContext, id: number) => renderDelayProfiles(ctx.state).find((profile) => profile.id === id);

export function delayProfileRoutes(): Route[] {
  return [
    { method: 'GET', pattern: 'delayprofile', handler: ({ state }) => ok(renderDelayProfiles(state)) },
    {
      method: 'GET',
      pattern: 'delayprofile/{id}',
      handler: (ctx) => {
        const found = render(ctx, ctx.id!);
        if (!found) throw httpErrors.notFound();
        return ok(found);
      },
    },
    {
      method: 'POST',
      pattern: 'delayprofile',
      kind: 'delayprofile',
      handler: (ctx) => {
        const profile = ctx.body<BoundDelayProfile>(delayProfileWire);
        validateForPost(sharedRules(ctx.state, profile));
        // DelayProfileService.Add: order = number of existing profiles.
        const stored = toStored(profile, 0, ctx.state.delayProfiles.length);
        refuseInsertWithId(profile);
        stored.id = nextId(ctx.state, 'delayProfiles');
        ctx.state.delayProfiles.push(stored);
        ctx.touched(stored.id);
        return created(render(ctx, stored.id));
      },
    },
    {
      method: 'PUT',
      pattern: 'delayprofile/{id?}',
      kind: 'delayprofile',
      handler: (ctx) => {
        const profile = ctx.body<BoundDelayProfile>(delayProfileWire);
        validateForPut(ctx, profile, () => sharedRules(ctx.state, profile));
        const index = ctx.state.delayProfiles.findIndex((existing) => existing.id === profile.id);
        const stored = toStored(profile, profile.id, profile.order);
        if (index < 0) throw httpErrors.modelNotFound('DelayProfile', profile.id);
        ctx.state.delayProfiles[index] = stored;
        ctx.touched(stored.id);
        return accepted(render(ctx, stored.id));
      },
    },
    {
      method: 'DELETE',
      pattern: 'delayprofile/{id}',
      kind: 'delayprofile',
      handler: (ctx) => {
        const id = requireValidRouteId(ctx);
        if (id === 1) throw httpErrors.api(405, 'Cannot delete global delay profile');
        if (!ctx.state.delayProfiles.some((profile) => profile.id === id)) throw httpErrors.modelNotFound('DelayProfile', id);
        ctx.state.delayProfiles = ctx.state.delayProfiles.filter((profile) => profile.id !== id);
        // DelayProfileService.Delete: renumber by order, leaving the global profile where it is.
        const ordered = [...ctx.state.delayProfiles].sort((a, b) => a.order - b.order);
        ordered.forEach((profile, index) => {
          if (profile.id !== 1) profile.order = index + 1;
        });
        ctx.touched(id);
        return deleted();
      },
    },
  ];
}

/**
 * /qualityprofile: list, get, create, update, delete, schema, with the apps' profile validators:
 * every quality exactly once (directly or in a group), groups named with >= 2 qualities, a cutoff
 * that is an allowed item, every custom format present in formatItems, minUpgradeFormatScore >= 1.
 */
import type { Language, ProfileFormatItemResource, QualityProfileQualityItemResource } from '../../domain/app-resources';
import type { AppFacts, QualityFact } from '../apps/facts';
import { httpErrors } from '../http-errors';
import { renderQualityProfile } from '../render';
import type { EmulatorBehaviour, RequestContext, Route } from '../router';
import { defaultProfile, nextId, qualityById, type EmulatorState, type QualityItem, type StoredQualityProfile } from '../state';
import { rules, type Failure } from '../validation/failures';
import { qualityProfileWire } from '../wires';
import { accepted, created, deleted, nullReference, ok, refuseInsertWithId, requireValidRouteId, validateForPost, validateForPut } from './rest';

type BoundItem = Omit<QualityProfileQualityItemResource<QualityFact>, 'items' | 'id'> & { id: number; items: BoundItem[] | null };

interface BoundProfile {
  id: number;
  name: string | null;
  upgradeAllowed: boolean;
  cutoff: number;
  items: BoundItem[] | null;
  minFormatScore: number;
  cutoffFormatScore: number;
  minUpgradeFormatScore?: number;
  formatItems: ProfileFormatItemResource[] | null;
  language?: Language | null;
}

const notBlank = (value: string | null | undefined) => typeof value === 'string' && value.trim() !== '';

/** The QualityItemsValidator chain: every validator runs; a null list fails them all. */
function itemRules(items: BoundItem[] | null, behaviour: EmulatorBehaviour, facts: AppFacts): Failure[] {
  const failures = [...rules.notEmpty('Items', items)];
  const fail = (ok: boolean, message: string, code: string) => failures.push(...rules.custom('Items', ok, message, items, code));
  if (items === null) {
    for (const [message, code] of [
      ['Must contain at least one allowed quality', 'AllowedValidator`1'],
      ['Individual qualities should not be named', 'QualityNameValidator`1'],
      ['Groups must contain multiple qualities', 'GroupItemValidator`1'],
      ['Groups must have an ID', 'ItemGroupIdValidator`1'],
      ['Groups must have a unique ID', 'UniqueIdValidator`1'],
      ['Qualities can only be used once', 'UniqueQualityIdValidator`1'],
      ['Must contain all qualities', 'AllQualitiesValidator`1'],
      ['Groups must have a name', 'ItemGroupNameValidator`1'],
    ]) {
      fail(false, message, code);
    }
    return failures;
  }
  fail(
    items.some((item) => item.allowed),
    'Must contain at least one allowed quality',
    'AllowedValidator`1',
  );
  fail(!items.some((item) => notBlank(item.name) && item.quality), 'Individual qualities should not be named', 'QualityNameValidator`1');
  fail(
    !items.some((item) => {
      if (!notBlank(item.name)) return false;
      if (item.items === null) nullReference();
      return item.items.length <= 1;
    }),
    'Groups must contain multiple qualities',
    'GroupItemValidator`1',
  );
  fail(!items.some((item) => !item.quality && item.id === 0), 'Groups must have an ID', 'ItemGroupIdValidator`1');
  const groupIds = items.filter((item) => item.id > 0).map((item) => item.id);
  fail(new Set(groupIds).size === groupIds.length, 'Groups must have a unique ID', 'UniqueIdValidator`1');

  // UniqueQualityIdValidator and AllQualitiesValidator walk the items the same way.
  const seen: number[] = [];
  for (const item of items) {
    if (item.id > 0) {
      if (item.items === null) nullReference();
      for (const inner of item.items) {
        if (!inner.quality) nullReference();
        seen.push(inner.quality.id);
      }
    } else {
      if (!item.quality) nullReference();
      seen.push(item.quality.id);
    }
  }
  fail(new Set(seen).size === seen.length, 'Qualities can only be used once', 'UniqueQualityIdValidator`1');
  fail(
    facts.qualities.every((quality) => seen.includes(quality.id)),
    'Must contain all qualities',
    'AllQualitiesValidator`1',
  );
  fail(!items.some((item) => !item.quality && !notBlank(item.name)), 'Groups must have a name', 'ItemGroupNameValidator`1');
  if (behaviour.strictGroupIds) {
    const low = items.filter((item) => !item.quality && item.id > 0 && item.id < 1000);
    fail(low.length === 0, 'Group IDs must be 1000 or greater', 'GroupIdRangeValidator');
  }
  return failures;
}

/** ValidCutoffValidator: the single top-level item with that id (group) or quality id must be allowed. */
function cutoffRule(profile: BoundProfile): Failure[] {
  const matches = (profile.items ?? []).filter((item) => (!item.quality && item.id === profile.cutoff) || item.quality?.id === profile.cutoff);
  if (matches.length > 1) throw httpErrors.unhandled('System.InvalidOperationException', 'Sequence contains more than one matching element');
  return rules.custom('Cutoff', matches[0]?.allowed === true, 'Cutoff must be an allowed quality or group', profile.cutoff, 'ValidCutoffValidator`1');
}

function formatItemRules(state: EmulatorState, profile: BoundProfile): Failure[] {
  if (profile.formatItems === null) throw httpErrors.unhandled('System.ArgumentNullException', "Value cannot be null. (Parameter 'source')");
  const sent = new Set(profile.formatItems.map((item) => item.format));
  const failures = rules.custom(
    'FormatItems',
    state.customFormats.every((format) => sent.has(format.id)),
    'All Custom Formats and no extra ones need to be present inside your Profile! Try refreshing your browser.',
    profile.formatItems,
    'PredicateValidator',
  );
  const scores = profile.formatItems.map((item) => item.score);
  const positiveSum = scores.filter((score) => score > 0).reduce((sum, score) => sum + score, 0);
  if (positiveSum < profile.minFormatScore) {
    if (scores.length === 0) throw httpErrors.unhandled('System.InvalidOperationException', 'Sequence contains no elements');
    if (Math.max(...scores) < profile.minFormatScore) failures.push(rules.objectLevel('Minimum Custom Format Score can never be satisfied'));
  }
  return failures;
}

function sharedRules(ctx: RequestContext, profile: BoundProfile): Failure[] {
  return [
    ...rules.notEmpty('Name', profile.name),
    ...(ctx.facts.hasMinUpgradeFormatScore ? rules.greaterThanOrEqual('MinUpgradeFormatScore', profile.minUpgradeFormatScore ?? 0, 1) : []),
    ...cutoffRule(profile),
    ...itemRules(profile.items, ctx.behaviour, ctx.facts),
    ...formatItemRules(ctx.state, profile),
  ];
}

/** QualityProfileQualityItemResource.ToModel: qualities are looked up by id (unknown ids throw). */
function toStoredItem(facts: AppFacts, item: BoundItem): QualityItem {
  let quality: QualityFact | undefined;
  if (item.quality) {
    quality = qualityById(facts, item.quality.id);
    if (!quality) throw httpErrors.unhandled('System.ArgumentException', "ID does not match a known quality (Parameter 'id')");
  }
  const stored: QualityItem = {
    items: (item.items ?? []).map((inner) => toStoredItem(facts, inner)),
    allowed: item.allowed,
  };
  if (item.id) stored.id = item.id;
  if (item.name !== null && item.name !== undefined) stored.name = item.name;
  if (quality) stored.quality = { ...quality };
  return stored;
}

function toStored(facts: AppFacts, profile: BoundProfile, id: number): StoredQualityProfile {
  const stored: StoredQualityProfile = {
    id,
    name: profile.name ?? '',
    upgradeAllowed: profile.upgradeAllowed,
    cutoff: profile.cutoff,
    items: (profile.items ?? []).map((item) => toStoredItem(facts, item)),
    minFormatScore: profile.minFormatScore,
    cutoffFormatScore: profile.cutoffFormatScore,
    formatItems: (profile.formatItems ?? []).map((item) => ({ format: item.format, score: item.score })),
  };
  if (facts.hasMinUpgradeFormatScore) stored.minUpgradeFormatScore = profile.minUpgradeFormatScore ?? 0;
  if (facts.profileLanguage) {
    // The language is stored by id and read back with the app's name for it.
    const language = facts.languages.find((candidate) => candidate.id === (profile.language?.id ?? 0));
    stored.language = language ? { ...language } : { id: profile.language?.id ?? 0, name: profile.language?.name ?? 'Unknown' };
  }
  return stored;
}

function find(state: EmulatorState, id: number | undefined) {
  return state.qualityProfiles.find((profile) => profile.id === id);
}

function render(ctx: RequestContext, id: number) {
  return renderQualityProfile(ctx.facts, ctx.state, find(ctx.state, id)!);
}

export function qualityProfileRoutes(): Route[] {
  return [
    { method: 'GET', pattern: 'qualityprofile', handler: ({ facts, state }) => ok(state.qualityProfiles.map((profile) => renderQualityProfile(facts, state, profile))) },
    {
      method: 'GET',
      pattern: 'qualityprofile/schema',
      handler: ({ facts, state }) => ok(renderQualityProfile(facts, state, defaultProfile(facts, state, '', 0, []))),
    },
    {
      method: 'GET',
      pattern: 'qualityprofile/{id}',
      handler: (ctx) => {
        if (!find(ctx.state, ctx.id)) throw httpErrors.notFound();
        return ok(render(ctx, ctx.id!));
      },
    },
    {
      method: 'POST',
      pattern: 'qualityprofile',
      kind: 'qualityprofile',
      handler: (ctx) => {
        const { facts, state } = ctx;
        const profile = ctx.body<BoundProfile>(qualityProfileWire(facts));
        validateForPost(sharedRules(ctx, profile));
        const stored = toStored(facts, profile, 0);
        refuseInsertWithId(profile);
        if (state.qualityProfiles.some((existing) => existing.name === stored.name)) throw httpErrors.constraint('QualityProfiles', 'Name');
        stored.id = nextId(state, 'qualityProfiles');
        state.qualityProfiles.push(stored);
        ctx.touched(stored.id);
        return created(render(ctx, stored.id));
      },
    },
    {
      method: 'PUT',
      pattern: 'qualityprofile/{id?}',
      kind: 'qualityprofile',
      handler: (ctx) => {
        const { facts, state } = ctx;
        const profile = ctx.body<BoundProfile>(qualityProfileWire(facts));
        validateForPut(ctx, profile, () => sharedRules(ctx, profile));
        const stored = toStored(facts, profile, profile.id);
        const index = state.qualityProfiles.findIndex((existing) => existing.id === profile.id);
        if (index < 0) throw httpErrors.modelNotFound('QualityProfile', profile.id);
        if (state.qualityProfiles.some((existing) => existing.name === stored.name && existing.id !== stored.id)) {
          throw httpErrors.constraint('QualityProfiles', 'Name');
        }
        state.qualityProfiles[index] = stored;
        ctx.touched(stored.id);
        return accepted(render(ctx, stored.id));
      },
    },
    {
      method: 'DELETE',
      pattern: 'qualityprofile/{id}',
      kind: 'qualityprofile',
      handler: (ctx) => {
        const id = requireValidRouteId(ctx);
        if (!find(ctx.state, id)) throw httpErrors.modelNotFound('QualityProfile', id);
        ctx.state.qualityProfiles = ctx.state.qualityProfiles.filter((profile) => profile.id !== id);
        ctx.touched(id);
        return deleted();
      },
    },
  ];
}


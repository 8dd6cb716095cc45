/**
 * /tag: list, get, create, update, delete. Creating a label that exists (exactly) returns the existing
 * tag; labels are stored lowercase. Radarr validates the characters, Lidarr only non-empty, Sonarr
 * nothing. A tag used by a delay profile cannot be deleted (409).
 */
import { httpErrors } from '../http-errors';
import { renderTags } from '../render';
import type { RequestContext, Route } from '../router';
import { nextId } from '../state';
import { failure, rules, type Failure } from '../validation/failures';
import { tagWire } from '../wires';
import { accepted, created, deleted, ok, refuseInsertWithId, requireValidRouteId, validateForPost, validateForPut } from './rest';

interface BoundTag {
  id: number;
  label: string | null;
}

function sharedRules(ctx: RequestContext, tag: BoundTag): Failure[] {
  switch (ctx.facts.tagRule) {
    case 'none':
      return [];
    case 'notEmpty':
      return rules.notEmpty('Label', tag.label);
    case 'radarr': {
      // Cascade(Stop): the pattern is only checked when the label is not empty.
      const empty = rules.notEmpty('Label', tag.label);
      if (empty.length) return empty;
      return /^[a-z0-9-]+$/i.test(tag.label!) ? [] : [failure('Label', 'Allowed characters a-z, 0-9 and -', tag.label, 'RegularExpressionValidator')];
    }
  }
}

function lowerLabel(tag: BoundTag): string {
  if (tag.label === null) throw httpErrors.unhandled('System.NullReferenceException', 'Object reference not set to an instance of an object.');
  return tag.label.toLowerCase();
}

const render = (ctx: RequestContext, id: number) => renderTags(ctx.state).find((tag) => tag.id === id);

export function tagRoutes(): Route[] {
  return [
    { method: 'GET', pattern: 'tag', handler: ({ state }) => ok(renderTags(state)) },
    {
      method: 'GET',
      pattern: 'tag/{id}',
      handler: (ctx) => {
        const found = render(ctx, ctx.id!);
        if (!found) throw httpErrors.notFound();
        return ok(found);
      },
    },
    {
      method: 'POST',
      pattern: 'tag',
      kind: 'tag',
      handler: (ctx) => {
        const tag = ctx.body<BoundTag>(tagWire);
        validateForPost(sharedRules(ctx, tag));
        const existing = ctx.state.tags.find((candidate) => candidate.label === tag.label);
        if (existing) return created(render(ctx, existing.id));
        const label = lowerLabel(tag);
        refuseInsertWithId(tag);
        if (ctx.facts.uniqueTagLabels && ctx.state.tags.some((candidate) => candidate.label === label)) throw httpErrors.constraint('Tags', 'Label');
        const id = nextId(ctx.state, 'tags');
        ctx.state.tags.push({ id, label });
        ctx.touched(id);
        return created(render(ctx, id));
      },
    },
    {
      method: 'PUT',
      pattern: 'tag/{id?}',
      kind: 'tag',
      handler: (ctx) => {
        const tag = ctx.body<BoundTag>(tagWire);
        validateForPut(ctx, tag, () => sharedRules(ctx, tag));
        const stored = ctx.state.tags.find((candidate) => candidate.id === tag.id);
        if (!stored) throw httpErrors.modelNotFound('Tag', tag.id);
        const label = lowerLabel(tag);
        if (ctx.facts.uniqueTagLabels && ctx.state.tags.some((candidate) => candidate.label === label && candidate.id !== tag.id)) {
          throw httpErrors.constraint('Tags', 'Label');
        }
        stored.label = label;
        ctx.touched(tag.id);
        return accepted(render(ctx, tag.id));
      },
    },
    {
      method: 'DELETE',
      pattern: 'tag/{id}',
      kind: 'tag',
      handler: (ctx) => {
        const id = requireValidRouteId(ctx);
        const tag = ctx.state.tags.find((candidate) => candidate.id === id);
        if (!tag) throw httpErrors.modelNotFound('Tag', id);
        if (ctx.state.delayProfiles.some((profile) => profile.tags.includes(id))) {
          throw httpErrors.client(409, `'${tag.label}' cannot be deleted since it's still in use`);
        }
        ctx.state.tags = ctx.state.tags.filter((candidate) => candidate.id !== id);
        ctx.touched(id);
        return deleted();
      },
    },
  ];
}

/**
 * /qualitydefinition: list (ordered by weight), get, update one, bulk update (PUT /update), limits.
 * Radarr and Sonarr validate sizes (min <= preferred <= max within the limits); Lidarr does not.
 * Weight is fixed by the app and the quality of a definition never changes here.
 */
import type { AppFacts, QualityFact } from '../apps/facts';
import { httpErrors } from '../http-errors';
import { renderQualityDefinitions } from '../render';
import type { RequestContext, Route } from '../router';
import { failure, displayName, rules, type Failure } from '../validation/failures';
import { qualityDefinitionWire } from '../wires';
import { accepted, check, ok, validateForPut } from './rest';

interface BoundDefinition {
  id: number;
  quality: QualityFact | null;
  title: string | null;
  weight: number;
  minSize: number | null;
  maxSize: number | null;
  preferredSize: number | null;
}

function compare(property: string, value: number, bound: number, kind: 'min' | 'max'): Failure[] {
  if (kind === 'min' ? value >= bound : value <= bound) return [];
  const words = kind === 'min' ? 'greater than or equal to' : 'less than or equal to';
  return [failure(property, `'${displayName(property)}' must be ${words} '${bound}'.`, value, kind === 'min' ? 'GreaterThanOrEqualTo' : 'LessThanOrEqualTo', { comparisonValue: bound })];
}

/** QualityDefinitionResourceValidator (Radarr, Sonarr). */
function sizeRules(facts: AppFacts, definition: BoundDefinition): Failure[] {
  const limits = facts.qualityDefinitionLimits;
  if (!limits) return [];
  const failures: Failure[] = [];
  const { minSize, maxSize, preferredSize } = definition;
  if (minSize !== null) failures.push(...compare('MinSize', minSize, limits.min, 'min'), ...compare('MinSize', minSize, preferredSize ?? limits.max, 'max'));
  if (preferredSize !== null) {
    failures.push(...compare('PreferredSize', preferredSize, minSize ?? limits.min, 'min'), ...compare('PreferredSize', preferredSize, maxSize ?? limits.max, 'max'));
  }
  if (maxSize !== null) failures.push(...compare('MaxSize', maxSize, preferredSize ?? limits.min, 'min'), ...compare('MaxSize', maxSize, limits.max, 'max'));
  return failures;
}

function apply(ctx: RequestContext, definition: BoundDefinition): boolean {
  const stored = ctx.state.qualityDefinitions.find((candidate) => candidate.id === definition.id);
  if (!stored) return false;
  stored.title = definition.title as string;
  stored.minSize = definition.minSize;
  stored.maxSize = definition.maxSize;
  stored.preferredSize = definition.preferredSize;
  return true;
}

export function qualityDefinitionRoutes(facts: AppFacts): Route[] {
  const routes: Route[] = [
    { method: 'GET', pattern: 'qualitydefinition', handler: ({ state }) => ok(renderQualityDefinitions(state)) },
    {
      method: 'GET',
      pattern: 'qualitydefinition/{id}',
      handler: ({ state, id }) => {
        const found = renderQualityDefinitions(state).find((definition) => definition.id === id);
        if (!found) throw httpErrors.notFound();
        return ok(found);
      },
    },
    {
      method: 'PUT',
      pattern: 'qualitydefinition/{id?}',
      kind: 'qualitydefinition',
      handler: (ctx) => {
        const definition = ctx.body<BoundDefinition>(qualityDefinitionWire(ctx.facts));
        validateForPut(ctx, definition, () => sizeRules(ctx.facts, definition));
        if (!apply(ctx, definition)) throw httpErrors.modelNotFound('QualityDefinition', definition.id);
        ctx.touched(definition.id);
        return accepted(renderQualityDefinitions(ctx.state).find((candidate) => candidate.id === definition.id));
      },
    },
    {
      method: 'PUT',
      pattern: 'qualitydefinition/update',
      kind: 'qualitydefinition',
      handler: (ctx) => {
        const wire = qualityDefinitionWire(ctx.facts);
        const definitions = ctx.body<BoundDefinition[] | null>({ kind: 'array', of: wire });
        if (definitions === null) throw httpErrors.api(400, "Request body can't be empty");
        // Each element goes through the shared and PUT validators.
        check(definitions.flatMap((definition) => [...sizeRules(ctx.facts, definition), ...rules.greaterThan('Id', definition.id, 0)]));
        // UpdateMany updates the rows that exist; unknown ids change nothing.
        const updated = definitions.filter((definition) => apply(ctx, definition)).map((definition) => definition.id);
        ctx.touched(...updated);
        return accepted(renderQualityDefinitions(ctx.state));
      },
    },
  ];
  if (facts.qualityDefinitionLimits) {
    const limits = facts.qualityDefinitionLimits;
    routes.push({ method: 'GET', pattern: 'qualitydefinition/limits', handler: () => ok({ min: limits.min, max: limits.max }) });
  }
  return routes;
}

/**
 * /config/naming and /config/mediamanagement: a single resource with id 1, read with GET (with or
 * without the id) and saved with PUT (202 with the saved resource).
 */
import type { ConfigFact } from '../apps/facts';
import { renderConfig } from '../render';
import type { EntityKind, RequestContext, Route } from '../router';
import type { EmulatorState } from '../state';
import { accepted, ok, validateForPut } from './rest';

function save(fact: ConfigFact, state: EmulatorState, target: 'naming' | 'mediaManagement', resource: Record<string, unknown>): void {
  if (fact.storage === 'record') {
    // The whole row is replaced, nulls included.
    const row: Record<string, unknown> = {};
    for (const key of Object.keys(fact.wire.props)) {
      if (key === 'id' || fact.unstored?.includes(key)) continue;
      row[key] = resource[key];
    }
    state[target] = row;
    return;
  }
  // ConfigService.SaveConfigDictionary: one setting per property; null values are skipped.
  for (const key of Object.keys(fact.wire.props)) {
    if (key === 'id' || fact.unstored?.includes(key)) continue;
    const value = resource[key];
    if (value === null || value === undefined) continue;
    state[target][key] = value;
  }
}

function configRoutes(path: string, kind: EntityKind, target: 'naming' | 'mediaManagement', factOf: (ctx: RequestContext) => ConfigFact): Route[] {
  const get = (ctx: RequestContext) => ok(renderConfig(factOf(ctx), ctx.state[target]));
  return [
    { method: 'GET', pattern: path, handler: get },
    { method: 'GET', pattern: `${path}/{id}`, handler: get },
    {
      method: 'PUT',
      pattern: `${path}/{id?}`,
      kind,
      handler: (ctx) => {
        const fact = factOf(ctx);
        const resource = ctx.body<Record<string, unknown> & { id: number }>(fact.wire);
        validateForPut(ctx, resource, () => fact.validate(resource));
        save(fact, ctx.state, target, resource);
        ctx.touched(1);
        return accepted(renderConfig(fact, ctx.state[target]));
      },
    },
  ];
}

export function namingRoutes(): Route[] {
  return configRoutes('config/naming', 'naming', 'naming', (ctx) => ctx.facts.naming);
}

export function mediaManagementRoutes(): Route[] {
  return configRoutes('config/mediamanagement', 'mediamanagement', 'mediaManagement', (ctx) => ctx.facts.mediaManagement);
}

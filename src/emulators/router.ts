/**
 * Routing for the emulated API: routes are declared relative to the app's API base, matched
 * case-insensitively like ASP.NET routing, with `{id}` (int) and `{id?}` (optional int) segments.
 */
import type { AppFacts } from './apps/facts';
import { bind, BindingError, type Wire } from './binding';
import { ApiError, httpErrors } from './http-errors';
import type { EmulatorState } from './state';

/** The kinds of entity whose writes are counted. */
export const ENTITY_KINDS = [
  'customformat',
  'qualityprofile',
  'qualitydefinition',
  'delayprofile',
  'naming',
  'mediamanagement',
  'metadataprofile',
  'tag',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EmulatorBehaviour {
  /** Reject quality profile groups with ids below 1000 (a rule of arrgo's contract; see docs/emulators.md). */
  strictGroupIds: boolean;
}

export interface RequestContext {
  facts: AppFacts;
  state: EmulatorState;
  behaviour: EmulatorBehaviour;
  /** The `{id}` route value, when the route has one and it was given. */
  id?: number;
  query: URLSearchParams;
  /** Binds the JSON request body like the app's model binding does (400/415 on failure). */
  body<T>(wire: Wire): T;
  /** Ids of the entities a write touched (for the write log). */
  touched(...ids: number[]): void;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
}

export type Handler = (ctx: RequestContext) => HandlerResult;

export interface Route {
  method: HttpMethod;
  pattern: string;
  kind?: EntityKind;
  handler: Handler;
}

interface CompiledRoute extends Route {
  segments: string[];
}

export interface RouteMatch {
  route: Route;
  id?: number;
}

const INT_SEGMENT = /^-?\d+$/;

export class Router {
  private readonly routes: CompiledRoute[];

  constructor(routes: Route[]) {
    // Literal segments win over {id}: routes without parameters are tried first.
    this.routes = routes
      .map((route) => ({ ...route, segments: route.pattern.toLowerCase().split('/').filter(Boolean) }))
      .sort((a, b) => Number(a.pattern.includes('{')) - Number(b.pattern.includes('{')));
  }

  /** `null` when no route has the path; `'methodNotAllowed'` when the path exists for another verb. */
  match(method: string, relativePath: string): RouteMatch | 'methodNotAllowed' | null {
    const parts = relativePath.toLowerCase().split('/').filter(Boolean);
    let pathExists = false;
    for (const route of this.routes) {
      const id = matchSegments(route.segments, parts);
      if (id === false) continue;
      pathExists = true;
      if (route.method === method) return { route, id: id ?? undefined };
    }
    return pathExists ? 'methodNotAllowed' : null;
  }
}

/** false when the path does not match; the id (or null) when it does. */
function matchSegments(segments: string[], parts: string[]): number | null | false {
  let id: number | null = null;
  const optionalLast = segments.length > 0 && segments[segments.length - 1] === '{id?}';
  if (parts.length !== segments.length && !(optionalLast && parts.length === segments.length - 1)) return false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const part = parts[i];
    if (segment === '{id}' || segment === '{id?}') {
      if (part === undefined) continue;
      if (!INT_SEGMENT.test(part)) return false;
      const value = Number(part);
      if (!Number.isSafeInteger(value) || value > 2147483647 || value < -2147483648) return false;
      id = value;
    } else if (segment !== part) {
      return false;
    }
  }
  return id;
}

const JSON_CONTENT_TYPE = /^(application\/json|text\/json|application\/[^;]*\+json)\s*(;|$)/i;

/** Parses and binds a raw request body; throws ApiError as ASP.NET model binding would. */
export function bindBody<T>(raw: string, contentType: string | undefined, wire: Wire): T {
  if (!contentType || !JSON_CONTENT_TYPE.test(contentType.trim())) throw httpErrors.unsupportedMediaType();
  if (raw.trim() === '') {
    throw httpErrors.binding({ '': ['A non-empty request body is required.'], resource: ['The resource field is required.'] });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw httpErrors.binding({ $: ["'.' is an invalid start of a value. Path: $ | LineNumber: 0 | BytePositionInLine: 0."], resource: ['The resource field is required.'] });
  }
  if (parsed === null) throw httpErrors.api(400, "Request body can't be empty");
  try {
    return bind(parsed, wire) as T;
  } catch (error) {
    if (error instanceof BindingError) {
      throw httpErrors.binding({ [error.path]: [error.message], resource: ['The resource field is required.'] });
    }
    throw error;
  }
}

export { ApiError };

/**
 * Validation against the apps' own OpenAPI documents (../shared/data/openapi). Component schemas are
 * compiled with ajv (strict off); OpenAPI 3.0 `nullable` is honoured, including on untyped schemas.
 */
import fs from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { sharedPath } from '../../helpers/shared-data';

export type OpenApiApp = 'radarr' | 'sonarr' | 'lidarr';

export const OPENAPI_PARTS = ['data', 'openapi'];

type Json = Record<string, unknown>;

/** OpenAPI 3.0 -> what ajv accepts: `nullable` without `type` means "anything". */
function normalize(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalize);
  if (!node || typeof node !== 'object') return node;
  const result: Json = {};
  for (const [key, value] of Object.entries(node as Json)) result[key] = normalize(value);
  if (result.nullable === true && result.type === undefined) delete result.nullable;
  return result;
}

export interface OpenApi {
  app: OpenApiApp;
  doc: Json;
  apiBase: string;
  /** Errors (empty when valid) of `data` against components.schemas[name]. */
  check(schemaName: string, data: unknown): string[];
  /** Errors of a response body against the documented 200 response of a path and method. */
  checkResponse(method: string, path: string, data: unknown): string[];
  /** Errors of a request body against the documented request body of a path and method. */
  checkRequest(method: string, path: string, data: unknown): string[];
  schemaProperties(name: string): string[];
  schema(name: string): Json;
}

const cache = new Map<OpenApiApp, OpenApi>();

export function loadOpenApi(app: OpenApiApp): OpenApi {
  const cached = cache.get(app);
  if (cached) return cached;
  const doc = normalize(JSON.parse(fs.readFileSync(sharedPath('data', 'openapi', `${app}.json`), 'utf8'))) as Json;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const { openapi: _openapi, info: _info, ...rest } = doc;
  ajv.addSchema({ ...rest, $id: app }, app);
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (schema: Json): ValidateFunction => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      // Resolve local refs against the document.
      const rebased = JSON.parse(key.replace(/"#\/components\//g, `"${app}#/components/`)) as Json;
      validate = ajv.compile(rebased);
      compiled.set(key, validate);
    }
    return validate;
  };
  const run = (schema: Json, data: unknown) => {
    const validate = validatorFor(schema);
    return validate(data) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
  };
  const apiBase = app === 'lidarr' ? '/api/v1' : '/api/v3';
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const operation = (method: string, path: string) => {
    const op = paths[`${apiBase}${path}`]?.[method.toLowerCase()];
    if (!op) throw new Error(`${app}: ${method} ${path} is not in the OpenAPI document`);
    return op;
  };
  const api: OpenApi = {
    app,
    doc,
    apiBase,
    check: (name, data) => run({ $ref: `#/components/schemas/${name}` }, data),
    checkResponse: (method, path, data) => {
      const content = ((operation(method, path).responses as Json)['200'] as Json).content as Record<string, { schema: Json }> | undefined;
      if (!content) throw new Error(`${app}: ${method} ${path} documents no response body`);
      return run(content['application/json'].schema, data);
    },
    checkRequest: (method, path, data) => {
      const content = (operation(method, path).requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined;
      if (!content) throw new Error(`${app}: ${method} ${path} documents no request body`);
      return run(content['application/json'].schema, data);
    },
    schemaProperties: (name) => Object.keys((((doc.components as Json).schemas as Json)[name] as Json).properties as Json),
    schema: (name) => ((doc.components as Json).schemas as Json)[name] as Json,
  };
  cache.set(app, api);
  return api;
}

import { AppError, isAppError } from '../errors';

/**
 * Domain validation messages read "field: problem". At the API edge they are placed in the
 * request ("Invalid request: query.arrType required for ..."), so every 400 names the field the
 * client sent. Other errors pass through unchanged.
 */
/** Where a domain field sits in the request: root field name (or '*') to prefix, e.g. { '*': 'query.' }. */
export type FieldPlacement = Record<string, string>;

export function locateDomainErrors<T>(fieldPrefixes: FieldPlacement, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw locate(fieldPrefixes, error);
  }
}

export function locate(fieldPrefixes: FieldPlacement, error: unknown): unknown {
  if (!isAppError(error) || error.kind !== 'validation' || error.publicMessage.startsWith('Invalid request:')) return error;
  // A domain error that names its field beside its text (payload validation): placed as it is.
  const named = error.details?.payloadPath;
  if (named) {
    const placed = `${fieldPrefixes[named.split('.')[0]] ?? fieldPrefixes['*'] ?? ''}${named}`;
    return new AppError('validation', `Invalid request: ${error.publicMessage}`, { field: placed });
  }
  const match = /^([A-Za-z0-9_.\\\- +()[\]|:'"/&]+?): (.*)$/s.exec(error.publicMessage);
  if (!match) return new AppError('validation', `Invalid request: ${error.publicMessage}`);
  const [, field, problem] = match;
  const root = field.split('.')[0];
  const prefix = fieldPrefixes[root] ?? fieldPrefixes['*'] ?? '';
  // The field beside the text, so a client can show the refusal next to the field it names.
  return new AppError('validation', `Invalid request: ${prefix}${field} ${problem}`, { field: `${prefix}${field}` });
}

/** The spec lists "database not ready" among the 400s of the read endpoints (resolved, graph, parity). */
export function notReadyAsBadRequest(error: unknown): unknown {
  if (isAppError(error) && error.kind === 'not_ready') return new AppError('validation', error.publicMessage);
  return error;
}

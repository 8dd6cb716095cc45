import { constructFromEvents, CORE_SCHEMA, defineScalarTag, EVENT_ID, floatCoreTag, mergeTag, NOT_RESOLVED, parseEvents } from 'js-yaml';

/**
 * The fleet file's fast parse: js-yaml (about ten times faster than `yaml` on a 200-instance file), only for
 * text where its value is known to equal what `yaml` (the loader's reference, with positions) gives. Anything
 * else is `undefined`, and the caller parses with `yaml` as before: both read YAML 1.2's core schema, but they
 * part on a few inputs that this refuses to guess about:
 * - a directive (`%YAML 1.1` switches `yaml` to another schema);
 * - an explicit tag other than `!env` and `!file` (`yaml` refuses `!!float 1`, js-yaml reads it);
 * - a number too large for a double (`yaml` reads Infinity, js-yaml a string);
 * - an anchor or alias name ending in `:` (a warning in `yaml`);
 * - an alias inside an anchored node, or as many aliases as YAML_MAX_ALIAS_COUNT (`yaml` counts an anchor
 *   and its aliases, times the aliases inside it, to stop entity-expansion attacks, and throws past that count);
 * - empty text, several documents, and whatever js-yaml refuses.
 */
export const YAML_MAX_ALIAS_COUNT = 1000;
const MAX_ALIASES = YAML_MAX_ALIAS_COUNT - 1;

const SECRET_TAGS = new Set(['!env', '!file']);

/** Thrown inside js-yaml's resolution to give up on the fast parse. */
class NotFast extends Error {}

/** `yaml`'s core-schema numbers (yaml/dist/schema/core): a plain scalar of these forms is a number there, however large. */
const CORE_NUMBER = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;

/** js-yaml's core float, last of the numeric resolvers: a number it leaves as a string because it overflows gives up. */
const floatOrGiveUp = defineScalarTag(floatCoreTag.tagName, {
  implicit: true,
  implicitFirstChars: floatCoreTag.implicitFirstChars,
  identify: floatCoreTag.identify,
  resolve: (source, isExplicit, tagName) => {
    const value = floatCoreTag.resolve(source, isExplicit, tagName);
    if (value === NOT_RESOLVED && !isExplicit && CORE_NUMBER.test(source)) throw new NotFast();
    return value;
  },
});

const SCHEMA = CORE_SCHEMA.withTags(
  mergeTag,
  floatOrGiveUp,
  defineScalarTag('!env', { resolve: (value) => ({ env: value }), identify: () => false }),
  defineScalarTag('!file', { resolve: (value) => ({ file: value }), identify: () => false }),
);

/** The file's value as `yaml` would give it (`!env X` as `{ env: 'X' }`, merge keys applied), or undefined to parse with `yaml`. */
export function fastYamlValue(text: string): unknown {
  try {
    const events = parseEvents(text, {});
    if (!trusted(text, events)) return undefined;
    const documents = constructFromEvents(events, { source: text, schema: SCHEMA, maxAliases: MAX_ALIASES });
    return documents.length === 1 ? documents[0] : undefined;
  } catch {
    return undefined;
  }
}

type Events = ReturnType<typeof parseEvents>;

function trusted(text: string, events: Events): boolean {
  const name = (start: number, end: number) => text.slice(start, end);
  // For each open document or collection: whether it or one around it has an anchor.
  const anchored: boolean[] = [];
  let aliases = 0;
  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        if (event.directives.length) return false;
        anchored.push(false);
        break;
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING:
      case EVENT_ID.SCALAR:
        if (event.tagStart >= 0 && !SECRET_TAGS.has(name(event.tagStart, event.tagEnd))) return false;
        if (event.anchorStart >= 0 && name(event.anchorStart, event.anchorEnd).endsWith(':')) return false;
        if (event.type !== EVENT_ID.SCALAR) anchored.push(event.anchorStart >= 0 || anchored.at(-1) === true);
        break;
      case EVENT_ID.ALIAS:
        if (anchored.at(-1) === true || ++aliases > MAX_ALIASES || name(event.anchorStart, event.anchorEnd).endsWith(':')) return false;
        break;
      case EVENT_ID.POP:
        anchored.pop();
        break;
    }
  }
  return true;
}

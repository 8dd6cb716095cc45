/**
 * The categorizer: places a custom format into one of the 15 categories from its conditions
 * (implementation types and values, the names and patterns of the regular expressions they use)
 * and its name. Rules are tried in a fixed order; the first that matches decides, and its id is
 * reported (`ruleId`). A reference guide's custom-format groups, when given, decide first.
 * A format no rule places is uncategorized, with a suggested category and a reason: it is never
 * scored by guesswork. See docs/goals.md for the rule table.
 */
import type { CustomFormatCondition, CustomFormatData } from '../pcd';
import { AUDIO_CATEGORIES, HDR_CATEGORIES, RELEASE_GROUP_TIERS, type Category } from './categories';

/** How a category was found. */
export type CategorySource = 'guide_group' | 'conditions' | 'name';

export interface Categorized {
  status: 'categorized';
  category: Category;
  source: CategorySource;
  ruleId: string;
}

export interface Uncategorized {
  status: 'uncategorized';
  suggestedCategory: Category;
  reason: string;
}

export type Categorization = Categorized | Uncategorized;

/** What a reference guide says about one format: the categories its custom-format group names. */
export interface GuideHint {
  /** One category, or a family (e.g. every audio category) when the group names only the family. */
  categories: readonly Category[];
  /** Display name of the guide's group. */
  group: string;
}

/** Guide hints by custom format name and by the guide's id of the format (trash_id). */
export interface GuideCategoryHints {
  byName?: ReadonlyMap<string, GuideHint>;
  byTrashId?: ReadonlyMap<string, GuideHint>;
}

export interface CategorizeOptions {
  /** Regular expression name -> pattern (patterns are read as words, not run). */
  patterns?: Readonly<Record<string, string>>;
  guide?: GuideCategoryHints | null;
  /** The guide's id of this format, when known. */
  trashId?: string | null;
}

interface Facts {
  name: string;
  positive: CustomFormatCondition[];
  negated: CustomFormatCondition[];
  types: Set<string>;
  sources: Set<string>;
  resolutions: Set<string>;
  modifiers: Set<string>;
  flags: Set<string>;
  /** Lower-cased names and de-escaped patterns of the positive title/group/edition conditions. */
  words: string;
}

type Rule = { id: string; category: Category | ((f: Facts) => Category); source: CategorySource; test: (f: Facts) => boolean };

const WEB_SOURCES = new Set(['web_dl', 'webrip', 'television']);

/** Streaming services whose formats often match on the title alone (names are compared case-insensitively). */
const KNOWN_SERVICES = new Set(
  ['AMZN', 'ATVP', 'ATV', 'DSNP', 'HBO', 'HMAX', 'MAX', 'HULU', 'MA', 'NF', 'PCOK', 'PMTP', 'iT', 'STAN', 'CRAV', 'CR', 'FUNi', 'HIDIVE'].map((s) => s.toLowerCase()),
);

const has = (re: RegExp) => (f: Facts) => re.test(f.name);
const words = (re: RegExp) => (f: Facts) => re.test(f.words);

function tierOf(f: Facts): Category {
  const n = Number(/\btier\s*0*(\d+)\b/i.exec(f.name)?.[1] ?? '3');
  return RELEASE_GROUP_TIERS[Math.min(Math.max(n, 1), 3) - 1];
}

const onlyTypes = (f: Facts, allowed: string[]) => f.positive.length > 0 && f.positive.every((c) => allowed.includes(c.type));

const LOSSLESS = /truehd|dts[ -:]?x\b|dts-?hd ?ma|\bflac\b|\bl?pcm\b|\balac\b/;
const ADVANCED = /atmos|dd\+|\bddp\b|e-?ac-?3|dts-?hd ?hra|dts-es|\b[67]\.1\b|\bmulti\b|dual[ -]audio/;
const BASELINE = /\baac\b|^dd$|\bac-?3\b|^dts$|\bmp3\b|\bopus\b|\b[1-5]\.[01]\b|stereo|\bmono\b|surround|\bsound\b/;
const DV = /\b(dv|dovi|dolby ?vision)\b/;
const HDR10PLUS = /hdr10\+|hdr10 ?plus/;
const HDR = /\b(hdr10|hdr|hlg)\b/;

/** Rules in the order they are tried (see docs/goals.md). */
export const RULES: readonly Rule[] = [
  {
    id: 'unwanted.name',
    category: 'unwanted',
    source: 'name',
    test: has(/\b(lq|low quality|br-?disk|3d|extras|upscaled|obfuscated|retags?|line\/mic|sing-?along|black and white|no-?rlsgroup|generated dynamic hdr|raws?|microsized|bad dual|dubs only)\b|^(scene|bw)$/),
  },
  { id: 'unwanted.codec', category: 'unwanted', source: 'name', test: has(/^(av1|x266|vvc|h\.?266)\b/) },
  { id: 'unwanted.golden-rule', category: 'unwanted', source: 'name', test: has(/x265 \((hd|no hdr)/) },
  {
    id: 'unwanted.language',
    category: 'unwanted',
    source: 'conditions',
    test: (f) => f.positive.length === 0 && f.negated.length > 0 && f.negated.every((c) => c.type === 'language'),
  },
  { id: 'unwanted.language-name', category: 'unwanted', source: 'name', test: has(/^(language: not|wrong language|not [a-z]+( or [a-z]+)?$)/) },
  { id: 'release_group.tier-name', category: tierOf, source: 'name', test: has(/\btier\s*0*\d+\b/) },
  { id: 'repack_proper.name', category: 'repack_proper', source: 'name', test: has(/\b(repack\d*|proper|rerip)\b/) },
  { id: 'repack_proper.revision', category: 'repack_proper', source: 'name', test: has(/^v\d$/) },
  { id: 'hdr_dv.name', category: 'hdr_dv', source: 'name', test: has(DV) },
  { id: 'hdr_hdr10plus.name', category: 'hdr_hdr10plus', source: 'name', test: has(HDR10PLUS) },
  { id: 'hdr_baseline.name', category: 'hdr_baseline', source: 'name', test: has(HDR) },
  { id: 'audio_lossless.name', category: 'audio_lossless', source: 'name', test: has(LOSSLESS) },
  { id: 'audio_advanced.name', category: 'audio_advanced', source: 'name', test: has(ADVANCED) },
  { id: 'audio_baseline.name', category: 'audio_baseline', source: 'name', test: has(BASELINE) },
  {
    id: 'movie_version.name',
    category: 'movie_version',
    source: 'name',
    test: has(/remaster|imax|criterion|open matte|theatrical|special edition|extended|director'?s cut|\buncut\b|unrated|\bhybrid\b|masters of cinema|vinegar syndrome|\bedition\b|\bhfr\b|uncensored/),
  },
  { id: 'movie_version.edition-condition', category: 'movie_version', source: 'conditions', test: (f) => f.types.has('edition') },
  { id: 'resolution.conditions', category: 'resolution', source: 'conditions', test: (f) => onlyTypes(f, ['resolution']) },
  { id: 'streaming_service.name', category: 'streaming_service', source: 'name', test: (f) => /streaming/.test(f.name) || KNOWN_SERVICES.has(f.name) },
  {
    id: 'streaming_service.web-title',
    category: 'streaming_service',
    source: 'conditions',
    test: (f) => onlyTypes(f, ['release_title', 'source']) && f.types.has('release_title') && f.sources.size > 0 && [...f.sources].every((s) => WEB_SOURCES.has(s)),
  },
  {
    id: 'streaming_service.web-source',
    category: 'streaming_service',
    source: 'conditions',
    test: (f) => onlyTypes(f, ['source']) && [...f.sources].every((s) => WEB_SOURCES.has(s)),
  },
  { id: 'remux.name', category: 'remux', source: 'name', test: has(/\bremux\b/) },
  { id: 'remux.conditions', category: 'remux', source: 'conditions', test: (f) => f.modifiers.has('remux') && !f.types.has('release_group') },
  { id: 'release_group.internal', category: 'release_group_tier_3', source: 'name', test: (f) => /\binternal\b/.test(f.name) || f.flags.has('internal') },
  {
    id: 'release_group.untiered-list',
    category: 'release_group_tier_2',
    source: 'conditions',
    test: (f) => f.types.has('release_group') && onlyTypes(f, ['release_group', 'resolution', 'source']),
  },
  { id: 'release_group.groups-name', category: 'release_group_tier_2', source: 'name', test: (f) => /\bgroups?$/.test(f.name) && onlyTypes(f, ['release_title', 'release_group']) },
  // Conditions' regular expressions, for formats whose names say nothing.
  { id: 'hdr_dv.patterns', category: 'hdr_dv', source: 'conditions', test: words(DV) },
  { id: 'hdr_hdr10plus.patterns', category: 'hdr_hdr10plus', source: 'conditions', test: words(HDR10PLUS) },
  { id: 'hdr_baseline.patterns', category: 'hdr_baseline', source: 'conditions', test: words(HDR) },
  { id: 'audio_lossless.patterns', category: 'audio_lossless', source: 'conditions', test: words(LOSSLESS) },
  { id: 'audio_advanced.patterns', category: 'audio_advanced', source: 'conditions', test: words(/atmos|dd\+|\bddp\b|e-?ac-?3|dts-?hd ?hra|dts-es/) },
  { id: 'audio_baseline.patterns', category: 'audio_baseline', source: 'conditions', test: words(/\baac\b|\bac-?3\b|\bmp3\b|\bopus\b/) },
];

function dePattern(pattern: string): string {
  return pattern.replace(/\\[bBdDsSwW]/g, ' ').replace(/\(\?[a-z]+\)/gi, ' ').toLowerCase();
}

function factsOf(format: CustomFormatData, patterns: Readonly<Record<string, string>>): Facts {
  const positive = format.conditions.filter((c) => !c.negate);
  const pick = <K extends string>(type: string, key: K) =>
    new Set(positive.filter((c) => c.type === type).map((c) => String((c as unknown as Record<K, unknown>)[key]).toLowerCase()));
  const text: string[] = [];
  for (const c of positive) {
    if ('regularExpression' in c) {
      text.push(c.regularExpression.toLowerCase(), c.name.toLowerCase());
      const p = patterns[c.regularExpression];
      if (p) text.push(dePattern(p));
    }
  }
  return {
    name: format.name.toLowerCase(),
    positive,
    negated: format.conditions.filter((c) => c.negate),
    types: new Set(positive.map((c) => c.type)),
    sources: pick('source', 'source'),
    resolutions: pick('resolution', 'resolution'),
    modifiers: pick('quality_modifier', 'qualityModifier'),
    flags: pick('indexer_flag', 'flag'),
    words: text.join('\n'),
  };
}

function ownRules(f: Facts): Categorized | null {
  for (const rule of RULES) {
    if (rule.test(f)) {
      return { status: 'categorized', category: typeof rule.category === 'function' ? rule.category(f) : rule.category, source: rule.source, ruleId: rule.id };
    }
  }
  return null;
}

const FAMILY_DEFAULT = (categories: readonly Category[]): Category =>
  categories === RELEASE_GROUP_TIERS || categories.includes('release_group_tier_2') ? 'release_group_tier_2' : categories.includes('audio_baseline') ? 'audio_baseline' : categories[0];

function guideHint(format: CustomFormatData, options: CategorizeOptions): GuideHint | null {
  const guide = options.guide;
  if (!guide) return null;
  return (options.trashId ? guide.byTrashId?.get(options.trashId) : undefined) ?? guide.byName?.get(format.name) ?? null;
}

/** Places one custom format (see the module comment). */
export function categorize(format: CustomFormatData, options: CategorizeOptions = {}): Categorization {
  const facts = factsOf(format, options.patterns ?? {});
  const own = ownRules(facts);
  const hint = guideHint(format, options);
  if (hint && hint.categories.length > 0) {
    if (hint.categories.length === 1) return { status: 'categorized', category: hint.categories[0], source: 'guide_group', ruleId: `guide:${hint.group}` };
    if (own && hint.categories.includes(own.category)) return { ...own, source: 'guide_group', ruleId: `guide:${hint.group}+${own.ruleId}` };
    return {
      status: 'uncategorized',
      suggestedCategory: FAMILY_DEFAULT(hint.categories),
      reason: own
        ? `the reference guide's group "${hint.group}" names another kind of format than its conditions and name (${own.category})`
        : `the reference guide's group "${hint.group}" names several categories and no rule picks one`,
    };
  }
  if (own) return own;
  return suggest(facts);
}

/** A suggestion for a format no rule places (never used as a score). */
function suggest(f: Facts): Uncategorized {
  const out = (suggestedCategory: Category, reason: string): Uncategorized => ({ status: 'uncategorized', suggestedCategory, reason });
  if (/\b(x26[45]|h\.?26[45]|hevc|avc|vp9|vc-?1|mpeg-?2|xvid|10 ?bit|hi10p?)\b/.test(f.name)) {
    return out('unwanted', 'a video codec format: no category covers codecs; choose unwanted to reject it or keep its current score');
  }
  if (/\bsdr\b/.test(f.name)) return out('unwanted', 'an SDR format: choose unwanted to push SDR releases below HDR ones, or keep its current score');
  if (f.types.has('release_type')) return out('movie_version', 'a release-type format (season pack, episode): no category covers release types');
  if (f.types.has('language') || f.negated.some((c) => c.type === 'language')) return out('unwanted', 'a language format: no category covers languages');
  if (f.types.has('indexer_flag')) return out('release_group_tier_3', 'an indexer-flag format: no category covers indexer flags');
  if (f.types.has('release_group') || f.types.has('release_title')) return out('release_group_tier_2', 'matches titles or groups that no rule recognises');
  return out('unwanted', 'no condition or name rule places it');
}

export { AUDIO_CATEGORIES, HDR_CATEGORIES };

/**
 * Reference-guide custom-format groups (TRaSH's cf-groups) as categorizer hints. A group whose
 * name names a category (or a family of them) vouches for its formats; other groups
 * (miscellaneous, optional language sets, ...) say nothing. A format in several naming groups gets
 * the union of their categories, so the categorizer's own rules pick within it.
 */
import { AUDIO_CATEGORIES, RELEASE_GROUP_TIERS, type Category } from './categories';
import type { GuideCategoryHints, GuideHint } from './categorize';

/** A custom-format group of a reference guide (the fields arrgo reads). */
export interface GuideCfGroup {
  name: string;
  custom_formats: readonly { name: string; trash_id?: string }[];
}

const GROUP_RULES: readonly { test: RegExp; categories: readonly Category[] }[] = [
  { test: /^\[unwanted\]/i, categories: ['unwanted'] },
  { test: /^\[hdr formats\] (dv|dolby vision)\b/i, categories: ['hdr_dv'] },
  { test: /^\[hdr formats\] hdr10\+/i, categories: ['hdr_hdr10plus'] },
  { test: /^\[hdr formats\] (hdr|hdr10)$/i, categories: ['hdr_baseline'] },
  { test: /^\[audio\]/i, categories: AUDIO_CATEGORIES },
  { test: /\b(movie|series) versions$/i, categories: ['movie_version'] },
  { test: /\bresolutions$/i, categories: ['resolution'] },
  { test: /^\[release groups\]|\] release groups$/i, categories: RELEASE_GROUP_TIERS },
  { test: /repack\/proper/i, categories: ['repack_proper'] },
  { test: /^\[streaming services\]/i, categories: ['streaming_service'] },
];

/** The categories a guide group's name names, or null when it names none. */
export function guideGroupCategories(groupName: string): readonly Category[] | null {
  return GROUP_RULES.find((r) => r.test.test(groupName))?.categories ?? null;
}

function merge(map: Map<string, GuideHint>, key: string, hint: GuideHint): void {
  const existing = map.get(key);
  if (!existing) {
    map.set(key, hint);
    return;
  }
  const categories = [...new Set([...existing.categories, ...hint.categories])];
  if (existing.group === hint.group) {
    map.set(key, { categories, group: existing.group });
    return;
  }
  map.set(key, { categories, group: existing.group < hint.group ? `${existing.group} + ${hint.group}` : `${hint.group} + ${existing.group}` });
}

/** Hints by format name and trash_id from a guide's groups (groups naming no category are ignored). */
export function guideHintsFromGroups(groups: readonly GuideCfGroup[]): Required<GuideCategoryHints> {
  const byName = new Map<string, GuideHint>();
  const byTrashId = new Map<string, GuideHint>();
  for (const group of [...groups].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const categories = guideGroupCategories(group.name);
    if (!categories) continue;
    for (const cf of group.custom_formats) {
      merge(byName, cf.name, { categories, group: group.name });
      if (cf.trash_id) merge(byTrashId, cf.trash_id, { categories, group: group.name });
    }
  }
  return { byName, byTrashId };
}

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Leaves an emulated app as Recyclarr's sync of a guide-backed profile would have (its documented
 * behaviour, worked out here from the guide's JSON, independently of arrgo's import): the guide's
 * custom formats created through the app's API, and the profile with the guide's qualities, cutoff,
 * scores and language, every other format at 0 (reset_unmatched_scores); with quality_definition, the
 * guide's quality sizes of that type: a max at the app's limit sent as unlimited (null), preferred
 * sizes interpolated between min and the capped max at preferred_ratio (0.0 = min, 1.0 = max, as
 * Recyclarr's documentation describes it; to one decimal, a midpoint to the even tenth).
 */
export interface RecyclarrSeed {
  /** The guide's app directory: docs/json/<app>. */
  guideDir: string;
  profileTrashId: string;
  /** custom_format_groups.skip */
  skipGroups?: string[];
  /** custom_format_groups.add with select_all, scored on the profile. */
  addGroupsSelectAll?: string[];
  /** custom_formats with an explicit score on the profile, by trash_id. */
  scores?: Record<string, number>;
  /** quality_definition: the guide's quality-size type, and preferred_ratio. */
  qualityDefinition?: { type: string; preferredRatio?: number };
}

interface GuideFormat {
  trash_id: string;
  name: string;
  includeCustomFormatWhenRenaming?: boolean;
  trash_scores?: Record<string, number>;
  specifications: { name: string; implementation: string; negate: boolean; required: boolean; fields: Record<string, unknown> }[];
}

interface GuideGroup {
  trash_id: string;
  default?: string | boolean;
  custom_formats: { trash_id: string; required?: boolean; default?: string | boolean }[];
  quality_profiles?: { include?: Record<string, string> };
}

const readJson = <T>(dir: string): T[] => readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as T);
const isTrue = (v: unknown) => v === true || v === 'true';

/** Trash id to score of every format the profile gets, as Recyclarr computes it. */
export function recyclarrScores(seed: RecyclarrSeed): { profile: Record<string, unknown>; scores: Map<string, number>; formats: Map<string, GuideFormat> } {
  const formats = new Map(readJson<GuideFormat>(path.join(seed.guideDir, 'cf')).map((f) => [f.trash_id, f]));
  const profile = readJson<Record<string, unknown>>(path.join(seed.guideDir, 'quality-profiles')).find((p) => p.trash_id === seed.profileTrashId)!;
  const scoreSet = String(profile.trash_score_set ?? 'default');
  const guideScore = (id: string) => formats.get(id)?.trash_scores?.[scoreSet] ?? formats.get(id)?.trash_scores?.default ?? 0;
  const scores = new Map<string, number>();
  for (const id of Object.values(profile.formatItems as Record<string, string>)) scores.set(id, guideScore(id));
  for (const group of readJson<GuideGroup>(path.join(seed.guideDir, 'cf-groups'))) {
    const included = Object.values(group.quality_profiles?.include ?? {}).includes(seed.profileTrashId);
    if (seed.addGroupsSelectAll?.includes(group.trash_id)) for (const m of group.custom_formats) scores.set(m.trash_id, guideScore(m.trash_id));
    else if (included && isTrue(group.default) && !seed.skipGroups?.includes(group.trash_id))
      for (const m of group.custom_formats) if (m.required || isTrue(m.default)) scores.set(m.trash_id, guideScore(m.trash_id));
  }
  for (const [id, score] of Object.entries(seed.scores ?? {})) scores.set(id, score);
  return { profile, scores, formats };
}

/** Seeds the app through its own API (as Recyclarr writes it): formats first, then the profile. */
export async function seedAsRecyclarr(baseUrl: string, apiKey: string, seed: RecyclarrSeed): Promise<void> {
  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api/v3/${route}`, { method, headers: { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const { profile, scores, formats } = recyclarrScores(seed);
  const ids = new Map<string, number>();
  for (const trashId of scores.keys()) {
    const f = formats.get(trashId)!;
    const created = await call('POST', 'customformat', {
      name: f.name,
      includeCustomFormatWhenRenaming: f.includeCustomFormatWhenRenaming ?? false,
      specifications: f.specifications.map((s) => ({ name: s.name, implementation: s.implementation, negate: s.negate, required: s.required, fields: Object.entries(s.fields).map(([name, value]) => ({ name, value })) })),
    });
    ids.set(trashId, created.id as number);
  }
  const schema = await call('GET', 'qualityprofile/schema');
  type Item = { id?: number; name?: string; quality?: { id: number; name: string }; items: Item[]; allowed: boolean };
  const all = (schema.items as Item[]).flatMap((i) => (i.quality ? [i.quality] : i.items.map((m) => m.quality!)));
  const byName = (name: string) => all.find((q) => q.name === name)!;
  const guideItems = profile.items as { name: string; allowed: boolean; items?: string[] }[];
  const listed = new Set(guideItems.flatMap((i) => i.items ?? [i.name]));
  // quality_sort top: the guide's qualities above every other (disallowed) one; the API lists lowest first.
  const items: Item[] = all.filter((q) => !listed.has(q.name)).map((q) => ({ quality: q, items: [], allowed: false }));
  let groupId = 1000;
  let cutoff = 0;
  for (const item of [...guideItems].reverse()) {
    if (item.items) {
      const id = groupId++;
      items.push({ id, name: item.name, allowed: item.allowed, items: [...item.items].reverse().map((q) => ({ quality: byName(q), items: [], allowed: item.allowed })) });
      if (item.name === profile.cutoff) cutoff = id;
    } else {
      items.push({ quality: byName(item.name), items: [], allowed: item.allowed });
      if (item.name === profile.cutoff) cutoff = byName(item.name).id;
    }
  }
  const body: Record<string, unknown> = {
    name: profile.name,
    upgradeAllowed: profile.upgradeAllowed,
    cutoff,
    items,
    minFormatScore: profile.minFormatScore ?? 0,
    cutoffFormatScore: profile.cutoffFormatScore ?? 0,
    minUpgradeFormatScore: profile.minUpgradeFormatScore ?? 1,
    formatItems: (schema.formatItems as { format: number; name: string }[]).map((f) => ({ format: f.format, name: f.name, score: [...ids].find(([, id]) => id === f.format) ? scores.get([...ids].find(([, id]) => id === f.format)![0])! : 0 })),
  };
  if (typeof profile.language === 'string' && schema.language) {
    const languages = (await fetch(`${baseUrl}/api/v3/language`, { headers: { 'X-Api-Key': apiKey } }).then((r) => r.json())) as { id: number; name: string }[];
    body.language = languages.find((l) => l.name === profile.language) ?? schema.language;
  }
  await call('POST', 'qualityprofile', body);
  if (seed.qualityDefinition) await seedQualitySizes(call, seed.guideDir, seed.qualityDefinition);
}

async function seedQualitySizes(call: (method: string, route: string, body?: unknown) => Promise<unknown>, guideDir: string, wanted: { type: string; preferredRatio?: number }): Promise<void> {
  type Size = { quality: string; min: number; preferred: number; max: number };
  const guide = readJson<{ type: string; qualities: Size[] }>(path.join(guideDir, 'quality-size')).find((s) => s.type === wanted.type)!;
  const definitions = (await call('GET', 'qualitydefinition')) as { quality: { name: string }; minSize: number; maxSize: number | null; preferredSize: number | null }[];
  const { max: limit } = (await call('GET', 'qualitydefinition/limits')) as { max: number };
  // In hundredths, so that the midpoints are exact: (min + (max - min) * ratio) to tenths, ties to even.
  const tenthsHalfEven = (hundredths: number) => (hundredths % 10 === 5 ? (Math.floor(hundredths / 10) % 2 === 0 ? Math.floor(hundredths / 10) : Math.ceil(hundredths / 10)) : Math.round(hundredths / 10)) / 10;
  for (const definition of definitions) {
    const size = guide.qualities.find((q) => q.quality === definition.quality.name);
    if (!size) continue;
    const ratio = wanted.preferredRatio;
    const max = Math.min(size.max, limit);
    const preferred = ratio === undefined ? size.preferred : tenthsHalfEven(Math.round(size.min * 100 + (max - size.min) * 100 * ratio));
    Object.assign(definition, { minSize: size.min, maxSize: size.max >= limit ? null : size.max, preferredSize: preferred });
  }
  await call('PUT', 'qualitydefinition/update', definitions);
}

/**
 * What the apps refuse, as checks over a transform's output: each returns the violations found
 * (empty when every payload would be accepted).
 */
import type { ArrType } from '../../../src/domain/arr-types';
import {
  APP_CONDITION_TYPES,
  completeFormatItems,
  FIRST_GROUP_ID,
  IMPLEMENTATIONS,
  LIDARR_METADATA_TYPES,
  mergeDelayProfile,
  RESERVED_METADATA_PROFILE,
  type AppCatalog,
  type DesiredState,
  type NamedId,
} from '../../../src/domain/sync';

export function violations(desired: DesiredState, catalog: AppCatalog, arrType: ArrType, liveFormats: NamedId[] = []): string[] {
  const out: string[] = [];
  const supported = new Set([...APP_CONDITION_TYPES[arrType]].map((t) => IMPLEMENTATIONS[t]));

  // Custom formats: unique names, at least one named condition, implementations the app has, valid values.
  const formatNames = desired.customFormats.map((f) => f.name);
  if (new Set(formatNames).size !== formatNames.length) out.push('duplicate custom format names');
  for (const f of desired.customFormats) {
    const where = `customFormat ${f.name}`;
    if (f.payload.specifications.length === 0) out.push(`${where}: no condition`);
    for (const s of f.payload.specifications) {
      if (!s.name || s.name.trim() === '') out.push(`${where}: unnamed condition`);
      if (!supported.has(s.implementation as never)) out.push(`${where}: ${s.implementation} is not a ${arrType} implementation`);
      const v = Object.fromEntries(s.fields.map((x) => [x.name, x.value]));
      switch (s.implementation) {
        case 'ReleaseTitleSpecification':
        case 'ReleaseGroupSpecification':
        case 'EditionSpecification':
          if (typeof v.value !== 'string' || v.value.trim() === '') out.push(`${where}/${s.name}: empty pattern`);
          break;
        case 'SizeSpecification':
          if (!(typeof v.min === 'number' && typeof v.max === 'number' && v.min >= 0 && v.max > v.min)) out.push(`${where}/${s.name}: size ${v.min}..${v.max}`);
          break;
        case 'YearSpecification':
          if (!(typeof v.min === 'number' && typeof v.max === 'number' && v.min > 0 && v.max >= v.min)) out.push(`${where}/${s.name}: year ${v.min}..${v.max}`);
          break;
        case 'LanguageSpecification':
          if (!catalog.languages.some((l) => l.id === v.value)) out.push(`${where}/${s.name}: language ${String(v.value)}`);
          if (typeof v.exceptLanguage !== 'boolean') out.push(`${where}/${s.name}: exceptLanguage`);
          break;
        default:
          if (!Number.isInteger(v.value)) out.push(`${where}/${s.name}: value ${String(v.value)}`);
          // NotEmpty in the apps: 0 is refused (Release Type accepts it).
          if (s.implementation !== 'ReleaseTypeSpecification' && v.value === 0) out.push(`${where}/${s.name}: empty value`);
      }
    }
  }

  // Quality profiles.
  const profileNames = desired.qualityProfiles.map((p) => p.name);
  if (new Set(profileNames).size !== profileNames.length) out.push('duplicate quality profile names');
  const allFormats = [...liveFormats.filter((f) => !formatNames.includes(f.name)), ...desired.customFormats.map((f, i) => ({ id: 10_000 + i, name: f.name }))];
  for (const p of desired.qualityProfiles) {
    const where = `qualityProfile ${p.name}`;
    const b = p.body;
    const seen: number[] = [];
    const groupIds: number[] = [];
    for (const item of b.items) {
      if (item.quality) {
        if (item.name) out.push(`${where}: a quality item is named`);
        if (item.items && item.items.length > 0) out.push(`${where}: a quality item has members`);
        seen.push(item.quality.id);
      } else {
        if (!item.name || item.name.trim() === '') out.push(`${where}: unnamed group`);
        if (!item.id || item.id < FIRST_GROUP_ID) out.push(`${where}: group id ${String(item.id)}`);
        groupIds.push(item.id ?? 0);
        const members = item.items ?? [];
        if (members.length < 2) out.push(`${where}: group ${item.name} has ${members.length} qualities`);
        for (const m of members) {
          if (!m.quality) out.push(`${where}: group member without quality`);
          else seen.push(m.quality.id);
          if (m.allowed !== item.allowed) out.push(`${where}: group member allowed differs`);
        }
      }
    }
    if (new Set(groupIds).size !== groupIds.length) out.push(`${where}: duplicate group ids`);
    if (new Set(seen).size !== seen.length) out.push(`${where}: a quality is listed twice`);
    const catalogIds = catalog.qualities.map((q) => q.id);
    if (catalogIds.some((id) => !seen.includes(id)) || seen.some((id) => !catalogIds.includes(id))) out.push(`${where}: items are not exactly the app's qualities`);
    if (!b.items.some((i) => i.allowed)) out.push(`${where}: nothing allowed`);
    const cutoff = b.items.filter((i) => (i.quality ? i.quality.id === b.cutoff : i.id === b.cutoff));
    if (cutoff.length !== 1 || !cutoff[0].allowed) out.push(`${where}: cutoff ${b.cutoff} is not one allowed item`);
    if (arrType === 'music_app') {
      if ('minUpgradeFormatScore' in b) out.push(`${where}: minUpgradeFormatScore on Lidarr`);
    } else if (!(typeof b.minUpgradeFormatScore === 'number' && b.minUpgradeFormatScore >= 1)) {
      out.push(`${where}: minUpgradeFormatScore ${String(b.minUpgradeFormatScore)}`);
    }
    if ((arrType === 'movie_app') !== ('language' in b)) out.push(`${where}: language presence`);
    if (b.language && !catalog.languages.some((l) => l.id === b.language!.id)) out.push(`${where}: unknown language`);
    for (const name of Object.keys(p.formatScores)) if (!formatNames.includes(name)) out.push(`${where}: scores unknown format ${name}`);
    const items = completeFormatItems(allFormats, p.formatScores);
    if (new Set(items.map((i) => i.format)).size !== allFormats.length) out.push(`${where}: formatItems incomplete`);
    const positive = items.reduce((sum, i) => (i.score > 0 ? sum + i.score : sum), 0);
    if (b.minFormatScore > positive) out.push(`${where}: minFormatScore ${b.minFormatScore} unreachable (${positive})`);
  }

  // Delay profile 1.
  if (desired.delayProfile) {
    const f = desired.delayProfile.fields;
    if (!f.enableUsenet && !f.enableTorrent) out.push('delay profile: no protocol');
    if (f.usenetDelay < 0 || f.torrentDelay < 0) out.push('delay profile: negative delay');
    const merged = mergeDelayProfile({ ...f, id: 1, order: 2147483647, tags: [3] }, f);
    if (merged.tags.length !== 0 || merged.id !== 1) out.push('delay profile: tags on profile 1');
  }

  // Quality definitions within limits, min <= preferred <= max.
  if (desired.qualityDefinitions && catalog.qualityDefinitionLimits) {
    const { min, max } = catalog.qualityDefinitionLimits;
    for (const e of desired.qualityDefinitions.entries) {
      const upper = e.maxSize ?? max;
      const preferred = e.preferredSize ?? e.minSize;
      if (!(e.minSize >= min && e.minSize <= preferred && preferred <= upper && upper <= max)) {
        out.push(`quality definition ${e.quality}: ${e.minSize}/${String(e.preferredSize)}/${String(e.maxSize)}`);
      }
    }
  }

  // Lidarr metadata profile.
  if (desired.metadataProfile) {
    const m = desired.metadataProfile.payload;
    if (m.name === RESERVED_METADATA_PROFILE || m.name.trim() === '') out.push(`metadata profile named "${m.name}"`);
    const lists = [
      ['primaryAlbumTypes', m.primaryAlbumTypes.map((i) => ({ id: i.albumType.id, allowed: i.allowed }))],
      ['secondaryAlbumTypes', m.secondaryAlbumTypes.map((i) => ({ id: i.albumType.id, allowed: i.allowed }))],
      ['releaseStatuses', m.releaseStatuses.map((i) => ({ id: i.releaseStatus.id, allowed: i.allowed }))],
    ] as const;
    for (const [field, items] of lists) {
      if (!items.some((i) => i.allowed)) out.push(`metadata profile: no allowed ${field}`);
      const ids = items.map((i) => i.id).sort((a, b) => a - b);
      const all = LIDARR_METADATA_TYPES[field].map(([id]) => id as number);
      if (JSON.stringify(ids) !== JSON.stringify(all)) out.push(`metadata profile: ${field} is not every type once`);
    }
  }
  return out;
}

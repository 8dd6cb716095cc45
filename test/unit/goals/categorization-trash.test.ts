import fs from 'node:fs';
import path from 'node:path';
import { categorize, guideGroupCategories, guideHintsFromGroups, type GuideCfGroup } from '../../../src/domain/goals';
import { describeWithShared, hasShared, sharedPath } from '../../helpers/shared-data';
import { TRASH_PCD_PARTS } from '../pcd/helpers';
import { formatsOf, patternsOf, trashReplay } from './helpers';

const GUIDE_PARTS = ['data', 'trash-guides', 'docs', 'json'];

function guideGroups(): GuideCfGroup[] {
  const groups: GuideCfGroup[] = [];
  for (const app of ['radarr', 'sonarr']) {
    const dir = sharedPath(...GUIDE_PARTS, app, 'cf-groups');
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      groups.push(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as GuideCfGroup);
    }
  }
  return groups;
}

describeWithShared(TRASH_PCD_PARTS, 'categorizer on trash-pcd', () => {
  it('categorizes at least 90% of the custom formats from conditions and names alone', () => {
    const db = trashReplay().resolved;
    const formats = formatsOf(db);
    const patterns = patternsOf(db);
    const results = formats.map((f) => ({ name: f.name, result: categorize(f, { patterns }) }));
    const categorized = results.filter((r) => r.result.status === 'categorized').length;
    const share = categorized / formats.length;
    // eslint-disable-next-line no-console
    console.log(
      `goal categorizer on trash-pcd: ${categorized}/${formats.length} custom formats categorized (${(share * 100).toFixed(1)}%); uncategorized: ${results
        .filter((r) => r.result.status === 'uncategorized')
        .map((r) => r.name)
        .join(', ')}`,
    );
    expect(formats).toHaveLength(200);
    expect(share).toBeGreaterThanOrEqual(0.9);
    const byName = new Map(results.map((r) => [r.name, r.result]));
    // Spot checks with the rule that decided.
    expect(byName.get('TrueHD ATMOS')).toMatchObject({ category: 'audio_lossless', ruleId: 'audio_lossless.name' });
    expect(byName.get('DD+ ATMOS')).toMatchObject({ category: 'audio_advanced' });
    expect(byName.get('AAC')).toMatchObject({ category: 'audio_baseline' });
    expect(byName.get('DV (w/o HDR fallback)')).toMatchObject({ category: 'hdr_dv' });
    expect(byName.get('HDR10+ Boost')).toMatchObject({ category: 'hdr_hdr10plus' });
    expect(byName.get('HDR10')).toMatchObject({ category: 'hdr_baseline' });
    expect(byName.get('Remux Tier 01')).toMatchObject({ category: 'release_group_tier_1', ruleId: 'release_group.tier-name' });
    expect(byName.get('WEB Tier 03')).toMatchObject({ category: 'release_group_tier_3' });
    expect(byName.get('Anime BD Tier 07')).toMatchObject({ category: 'release_group_tier_3' });
    expect(byName.get('FLUX')).toMatchObject({ category: 'release_group_tier_2', ruleId: 'release_group.untiered-list' });
    expect(byName.get('ITVX')).toMatchObject({ category: 'streaming_service', source: 'conditions', ruleId: 'streaming_service.web-title' });
    expect(byName.get('WEBDL Boost')).toMatchObject({ category: 'streaming_service', ruleId: 'streaming_service.web-source' });
    // A 2160p Dolby Vision WEB boost: its conditions say DV.
    expect(byName.get('SiC')).toMatchObject({ category: 'hdr_dv', ruleId: 'hdr_dv.patterns' });
    expect(byName.get('MA')).toMatchObject({ category: 'streaming_service', ruleId: 'streaming_service.name' });
    expect(byName.get('Language: Not English')).toMatchObject({ category: 'unwanted', ruleId: 'unwanted.language' });
    expect(byName.get('x265 (HD)')).toMatchObject({ category: 'unwanted' });
    expect(byName.get('1080p')).toMatchObject({ category: 'resolution', ruleId: 'resolution.conditions' });
    expect(byName.get('Repack2')).toMatchObject({ category: 'repack_proper' });
    expect(byName.get('IMAX Enhanced')).toMatchObject({ category: 'movie_version' });
    expect(byName.get('Scene')).toMatchObject({ category: 'unwanted' });
    expect(byName.get('x264 (Codec)')).toMatchObject({ status: 'uncategorized', suggestedCategory: 'unwanted' });
  });

  (hasShared(...GUIDE_PARTS) ? it : it.skip)('agrees with TRaSH cf-groups on at least 95% of the formats they name a category for', () => {
    const db = trashReplay().resolved;
    const patterns = patternsOf(db);
    const hints = guideHintsFromGroups(guideGroups());
    let compared = 0;
    const disagreements: string[] = [];
    for (const format of formatsOf(db)) {
      const hint = hints.byName.get(format.name);
      if (!hint) continue;
      compared++;
      const own = categorize(format, { patterns });
      if (own.status !== 'categorized' || !hint.categories.includes(own.category)) {
        disagreements.push(`${format.name} (${own.status === 'categorized' ? own.category : 'uncategorized'} vs ${hint.group})`);
      }
    }
    const agreement = (compared - disagreements.length) / compared;
    // eslint-disable-next-line no-console
    console.log(
      `goal categorizer vs TRaSH cf-groups: agrees on ${compared - disagreements.length}/${compared} formats (${(agreement * 100).toFixed(1)}%); differs on: ${disagreements.join('; ')}`,
    );
    expect(compared).toBeGreaterThan(120);
    expect(agreement).toBeGreaterThanOrEqual(0.95);
  });

  (hasShared(...GUIDE_PARTS) ? it : it.skip)('lets linked guide groups decide first', () => {
    const db = trashReplay().resolved;
    const hints = guideHintsFromGroups(guideGroups());
    const formats = new Map(formatsOf(db).map((f) => [f.name, f]));
    // The SQP unwanted group names 10bit unwanted: the guide decides where the rules alone do not.
    expect(categorize(formats.get('10bit')!, { guide: hints })).toMatchObject({ status: 'categorized', category: 'unwanted', source: 'guide_group' });
    // A family group (audio) lets the own rules pick the member.
    expect(categorize(formats.get('DTS-HD MA')!, { guide: hints })).toMatchObject({ category: 'audio_lossless', source: 'guide_group', ruleId: 'guide:[Audio] Audio Formats+audio_lossless.name' });
    expect(guideGroupCategories('[Optional] Miscellaneous')).toBeNull();
    expect(guideGroupCategories('[HDR Formats] HDR')).toEqual(['hdr_baseline']);
  });
});

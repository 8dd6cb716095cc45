/** The policy and preset tables as Markdown (docs/goals.md embeds them; a test keeps them equal). */
import { CATEGORIES } from './categories';
import { PRESETS, SENSITIVITIES, SLIDER_AXES } from './policy';

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function policyTableMarkdown(): string {
  const head = `| category | ${PRESETS.map((p) => `base: ${p.id}`).join(' | ')} | ${SLIDER_AXES.join(' | ')} |`;
  const rule = `|${' --- |'.repeat(1 + PRESETS.length + SLIDER_AXES.length)}`;
  const rows = CATEGORIES.map((c) => `| ${c} | ${PRESETS.map((p) => String(p.base[c])).join(' | ')} | ${SLIDER_AXES.map((a) => signed(SENSITIVITIES[c][a])).join(' | ')} |`);
  return [head, rule, ...rows].join('\n');
}

export function presetTableMarkdown(): string {
  const head = `| preset | what it is for | suggested ${SLIDER_AXES.join(' / ')} / resolutionCeiling |`;
  const rows = PRESETS.map((p) => {
    const w = p.suggestedWeights;
    return `| \`${p.id}\` | ${p.description} | ${SLIDER_AXES.map((a) => w[a]).join(' / ')} / ${w.resolutionCeiling} |`;
  });
  return [head, '| --- | --- | --- |', ...rows].join('\n');
}

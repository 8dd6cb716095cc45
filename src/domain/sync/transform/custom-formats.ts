/**
 * PCD custom format -> the app's custom format payload (a condition scoped to the app and named
 * "<name> (<App>)" is sent as <name>: specificationNames). Conditions of another app family are left
 * out silently; conditions the app cannot express (a type it lacks, a value it has no number for,
 * a missing pattern or language) are left out and reported. A format left without any condition
 * would be refused by the app, so it is not produced at all (an error issue).
 */
import { specificationNames, type CustomFormatCondition, type CustomFormatData } from '../../pcd';
import type { CustomFormatPayload, CustomFormatSpecificationPayload, FieldPayload } from '../../app-resources';
import { languageByName } from '../catalog';
import {
  APP_CONDITION_TYPES,
  BYTES_PER_GB,
  enumValue,
  IMPLEMENTATIONS,
  UNBOUNDED_SIZE_GB,
  YEAR_BOUNDS,
  type ConditionType,
  type EnumKind,
} from '../enums';
import { appName } from '../namespace';
import { appLabel, report, type TransformContext } from './context';

export interface DesiredCustomFormat {
  /** Name on the app (namespaced). */
  name: string;
  /** PCD name (the display name). */
  displayName: string;
  payload: CustomFormatPayload & { specifications: (CustomFormatSpecificationPayload & { name: string; fields: FieldPayload[] })[] };
}

/** Condition types as the apps' UIs name them. */
const CONDITION_LABELS: Record<ConditionType, string> = {
  release_title: 'release title',
  release_group: 'release group',
  edition: 'edition',
  language: 'language',
  indexer_flag: 'indexer flag',
  source: 'source',
  resolution: 'resolution',
  quality_modifier: 'quality modifier',
  size: 'size',
  release_type: 'release type',
  year: 'year',
};

const ENUM_CONDITIONS: Partial<Record<ConditionType, { kind: EnumKind; label: string }>> = {
  source: { kind: 'source', label: 'source' },
  resolution: { kind: 'resolution', label: 'resolution' },
  quality_modifier: { kind: 'quality_modifier', label: 'quality modifier' },
  release_type: { kind: 'release_type', label: 'release type' },
  indexer_flag: { kind: 'indexer_flag', label: 'indexer flag' },
};

function enumText(condition: CustomFormatCondition): string {
  switch (condition.type) {
    case 'source':
      return condition.source;
    case 'resolution':
      return condition.resolution;
    case 'quality_modifier':
      return condition.qualityModifier;
    case 'release_type':
      return condition.releaseType;
    case 'indexer_flag':
      return condition.flag;
    default:
      return '';
  }
}

/** The specification fields of one condition, or a reason it cannot be expressed. */
function fieldsOf(condition: CustomFormatCondition, ctx: TransformContext, patterns: Record<string, string>): FieldPayload[] | string {
  switch (condition.type) {
    case 'release_title':
    case 'release_group':
    case 'edition': {
      const pattern = patterns[condition.regularExpression];
      if (pattern === undefined || pattern.trim() === '') return `regular expression "${condition.regularExpression}" is missing`;
      return [{ name: 'value', value: pattern }];
    }
    case 'language': {
      const language = languageByName(ctx.catalog, condition.language);
      if (!language) return `${appLabel(ctx.arrType)} has no language "${condition.language}"`;
      return [
        { name: 'value', value: language.id },
        { name: 'exceptLanguage', value: condition.exceptLanguage },
      ];
    }
    case 'size': {
      const min = (condition.minBytes ?? 0) / BYTES_PER_GB;
      const max = condition.maxBytes === null ? UNBOUNDED_SIZE_GB : condition.maxBytes / BYTES_PER_GB;
      if (!(max > min)) return 'the maximum size must be above the minimum';
      return [
        { name: 'min', value: min },
        { name: 'max', value: max },
      ];
    }
    case 'year': {
      const min = Math.max(condition.minYear ?? YEAR_BOUNDS.min, YEAR_BOUNDS.min);
      const max = condition.maxYear ?? YEAR_BOUNDS.max;
      if (max < min) return 'the maximum year is below the minimum';
      return [
        { name: 'min', value: min },
        { name: 'max', value: max },
      ];
    }
    default: {
      const spec = ENUM_CONDITIONS[condition.type];
      if (!spec) return `condition type "${condition.type as string}" is unknown`;
      const text = enumText(condition);
      const value = enumValue(spec.kind, ctx.arrType, text);
      if (value === null) return `${appLabel(ctx.arrType)} has no ${spec.label} "${text}"`;
      // The apps validate these values with NotEmpty: 0 (unknown, none) is refused; release types accept it.
      if (value === 0 && spec.kind !== 'release_type') return `${appLabel(ctx.arrType)} does not accept the ${spec.label} "${text}" in a condition`;
      return [{ name: 'value', value }];
    }
  }
}

export function transformCustomFormat(format: CustomFormatData, ctx: TransformContext, patterns: Record<string, string>): DesiredCustomFormat | null {
  const supported = APP_CONDITION_TYPES[ctx.arrType];
  const specifications: DesiredCustomFormat['payload']['specifications'] = [];
  const warn = (message: string) => report(ctx, 'warning', 'qualityProfiles', 'customFormat', format.name, message);
  const specificationName = specificationNames(format.conditions, ctx.arrType);
  for (const condition of format.conditions) {
    if (condition.arrType !== 'all' && condition.arrType !== ctx.arrType) continue;
    const type = condition.type as ConditionType;
    if (!supported.has(type)) {
      warn(`condition "${condition.name}" left out: ${appLabel(ctx.arrType)} has no ${CONDITION_LABELS[type] ?? condition.type} conditions`);
      continue;
    }
    const fields = fieldsOf(condition, ctx, patterns);
    if (typeof fields === 'string') {
      warn(`condition "${condition.name}" left out: ${fields}`);
      continue;
    }
    specifications.push({ name: specificationName.get(condition.name)!, implementation: IMPLEMENTATIONS[type], negate: condition.negate, required: condition.required, fields });
  }
  if (specifications.length === 0) {
    report(ctx, 'error', 'qualityProfiles', 'customFormat', format.name, `left out: no condition applies to ${appLabel(ctx.arrType)}`);
    return null;
  }
  const name = appName(format.name, ctx.namespace);
  return { name, displayName: format.name, payload: { name, includeCustomFormatWhenRenaming: format.includeInRename, specifications } };
}

/**
 * The custom-format condition types, which app families have each, and the values a condition of
 * each may hold per family: what the custom-format editor offers (GET /custom-formats/condition-types).
 * Built from the facts the sync writes with (./enums.ts, the apps' language lists), so the editor
 * offers exactly what a sync can write.
 */
import { ARR_TYPES, type ArrType } from '../arr-types';
import { APP_LANGUAGES } from '../app-resources/languages';
import { APP_CONDITION_TYPES, enumTexts, IMPLEMENTATIONS, type ConditionType, type EnumKind } from './enums';

/** What a condition of the type holds besides name, arrType, negate and required. */
export type ConditionValueKind = 'pattern' | 'value' | 'language' | 'size' | 'year';

export interface ConditionTypeInfo {
  type: ConditionType;
  /** App families whose custom formats have conditions of this type (a sync leaves it out elsewhere). */
  apps: ArrType[];
  kind: ConditionValueKind;
  /** The payload field holding the value (regularExpression, source, ...); size and year hold min and max fields. */
  fields: string[];
  /** The values a condition may hold, per app family that has the type (kinds value and language). */
  values: Partial<Record<ArrType, string[]>>;
}

const SHAPES: Record<ConditionType, { kind: ConditionValueKind; fields: string[]; enumKind?: EnumKind }> = {
  release_title: { kind: 'pattern', fields: ['regularExpression'] },
  release_group: { kind: 'pattern', fields: ['regularExpression'] },
  edition: { kind: 'pattern', fields: ['regularExpression'] },
  language: { kind: 'language', fields: ['language', 'exceptLanguage'] },
  indexer_flag: { kind: 'value', fields: ['flag'], enumKind: 'indexer_flag' },
  source: { kind: 'value', fields: ['source'], enumKind: 'source' },
  resolution: { kind: 'value', fields: ['resolution'], enumKind: 'resolution' },
  quality_modifier: { kind: 'value', fields: ['qualityModifier'], enumKind: 'quality_modifier' },
  size: { kind: 'size', fields: ['minBytes', 'maxBytes'] },
  release_type: { kind: 'value', fields: ['releaseType'], enumKind: 'release_type' },
  year: { kind: 'year', fields: ['minYear', 'maxYear'] },
};

export function conditionTypeCatalog(): ConditionTypeInfo[] {
  return (Object.keys(IMPLEMENTATIONS) as ConditionType[]).map((type) => {
    const shape = SHAPES[type];
    const apps = ARR_TYPES.filter((a) => APP_CONDITION_TYPES[a].has(type));
    const values: Partial<Record<ArrType, string[]>> = {};
    for (const app of apps) {
      if (shape.enumKind) values[app] = enumTexts(shape.enumKind, app);
      else if (shape.kind === 'language') values[app] = APP_LANGUAGES[app].map((l) => l.name);
    }
    return { type, apps, kind: shape.kind, fields: shape.fields, values };
  });
}

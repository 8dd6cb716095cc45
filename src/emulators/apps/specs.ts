/**
 * Builders for custom format specification implementations (their fields, select options and own
 * validators). The apps share most implementations; each app's facts pick the ones it has.
 */
import type { Language, SelectOption } from '../../domain/app-resources';
import { failure, rules, type Failure } from '../validation/failures';
import type { SpecFact, SpecFieldFact } from './facts';

/** Spec validators run through NzbDroneValidationResult, whose failures also carry isWarning. */
function specFailures(failures: Failure[]): Failure[] {
  return failures.map((f) => ({ ...f, isWarning: false }));
}

/** Select options of a .NET enum: name with '_' as ' ', order = value (unless a FieldOption gives one). */
export function enumOptions(entries: [name: string, value: number, order?: number, hint?: string][]): SelectOption[] {
  return entries
    .map(([name, value, order, hint]) => {
      const option: SelectOption = { value, name: name.replace(/_/g, ' '), order: order ?? value };
      if (hint !== undefined) option.hint = hint;
      return option;
    })
    .sort((a, b) => a.order - b.order);
}

/** Radarr's SelectOption also has dividerAfter (false unless set); Sonarr's and Lidarr's do not. */
export function withDividers(options: SelectOption[], after?: number): SelectOption[] {
  return options.map((option) => ({ ...option, dividerAfter: option.value === after }));
}

/** LanguageFieldConverter: ids <= 0 first, then by name. Radarr puts a divider after Unknown. */
export function languageOptions(languages: Language[], radarrDividers: boolean): SelectOption[] {
  const options = sortLanguages(languages).map((language) => ({ value: language.id, name: language.name, order: 0 }));
  return radarrDividers ? withDividers(options, 0) : options;
}

export function sortLanguages<T extends { id: number; name: string }>(languages: T[]): T[] {
  return [...languages].sort((a, b) => {
    const ga = a.id > 0 ? 1 : 0;
    const gb = b.id > 0 ? 1 : 0;
    if (ga !== gb) return ga - gb;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

/** The release-title presets Radarr and Sonarr offer in customformat/schema (Lidarr keeps the last one). */
export const RELEASE_TITLE_PRESETS = [
  { name: 'x264', value: '(x|h)\\.?264' },
  { name: 'x265', value: '(((x|h)\\.?265)|(HEVC))' },
  { name: 'Simple Hardcoded Subs', value: 'subs?' },
  { name: 'Hardcoded Subs', value: '\\b(?<hcsub>(\\w+SUBS?)\\b)|(?<hc>(HC|SUBBED))\\b' },
  { name: 'Surround Sound', value: 'DTS.?(HD|ES|X(?!\\D))|TRUEHD|ATMOS|DD(\\+|P).?([5-9])|EAC3.?([5-9])' },
  { name: 'Preferred Words', value: '\\b(SPARKS|Framestor)\\b' },
];

/** Size condition labels (localized in Radarr and Sonarr, literal in Lidarr: the same English text). */
export const SIZE_LABELS = {
  min: 'Minimum Size',
  minHelp: 'Release must be greater than this size',
  max: 'Maximum Size',
  maxHelp: 'Release must be less than or equal to this size',
};

interface SpecBase {
  implementation: string;
  implementationName: string;
  order: number;
  infoLink: string;
}

const REGEX_FIELD: SpecFieldFact = {
  name: 'value',
  label: 'Regular Expression',
  helpText: 'Custom Format RegEx is Case Insensitive',
  type: 'textbox',
  clr: 'string',
};

/** ReleaseTitle / ReleaseGroup / Edition: one regex; "Regex Pattern must not be empty". */
export function regexSpec(base: SpecBase): SpecFact {
  return {
    ...base,
    fields: [REGEX_FIELD],
    validate: (values) => {
      const value = values.value;
      const empty = typeof value !== 'string' || value.trim() === '';
      return specFailures(empty ? [failure('Value', 'Regex Pattern must not be empty', value, 'NotEmptyValidator')] : []);
    },
  };
}

/** A single select (Resolution, Source, Indexer Flag, Quality Modifier, Release Type). */
export function selectSpec(
  base: SpecBase,
  label: string,
  options: SelectOption[],
  check: { notEmpty: boolean; defined?: { values: number[]; message: (value: number) => string } },
): SpecFact {
  return {
    ...base,
    fields: [{ name: 'value', label, type: 'select', clr: 'int', selectOptions: options }],
    validate: (values) => {
      const value = values.value as number;
      const failures: Failure[] = [];
      if (check.notEmpty) failures.push(...rules.notEmpty('Value', value));
      if (check.defined && !check.defined.values.includes(value)) {
        failures.push(failure('Value', check.defined.message(value), value, 'PredicateValidator'));
      }
      return specFailures(failures);
    },
  };
}

export function languageSpec(base: SpecBase, languages: Language[], radarrDividers: boolean): SpecFact {
  return {
    ...base,
    fields: [
      { name: 'value', label: 'Language', type: 'select', clr: 'int', selectOptions: languageOptions(languages, radarrDividers) },
      {
        name: 'exceptLanguage',
        label: 'Except Language',
        helpText: 'Matches if any language other than the selected language is present',
        type: 'checkbox',
        clr: 'bool',
      },
    ],
    validate: (values) => {
      const value = values.value as number;
      return specFailures(
        languages.some((language) => language.id === value)
          ? []
          : [failure('Value', `Invalid Language condition value: ${value}`, value, 'PredicateValidator')],
      );
    },
  };
}

export function sizeSpec(
  base: SpecBase,
  labels: { min: string; minHelp: string; max: string; maxHelp: string },
  maxUpperBound: boolean,
): SpecFact {
  return {
    ...base,
    fields: [
      { name: 'min', label: labels.min, helpText: labels.minHelp, unit: 'GB', type: 'number', clr: 'double' },
      { name: 'max', label: labels.max, helpText: labels.maxHelp, unit: 'GB', type: 'number', clr: 'double' },
    ],
    validate: (values) => {
      const min = values.min as number;
      const max = values.max as number;
      const failures = [...rules.greaterThanOrEqual('Min', min, 0)];
      if (!(max > min)) {
        failures.push(failure('Max', `'Max' must be greater than '${min}'.`, max, 'GreaterThanValidator', { comparisonValue: min, comparisonProperty: 'Min' }));
      }
      if (maxUpperBound) failures.push(...rules.lessThanOrEqual('Max', max, Number.MAX_VALUE));
      return specFailures(failures);
    },
  };
}

export function yearSpec(base: SpecBase): SpecFact {
  return {
    ...base,
    fields: [
      { name: 'min', label: 'Minimum Year', type: 'number', clr: 'int' },
      { name: 'max', label: 'Maximum Year', type: 'number', clr: 'int' },
    ],
    validate: (values) => {
      const min = values.min as number;
      const max = values.max as number;
      const failures = [...rules.notEmpty('Min', min), ...rules.greaterThan('Min', min, 0), ...rules.notEmpty('Max', max)];
      if (!(max >= min)) {
        failures.push(
          failure('Max', `'Max' must be greater than or equal to '${min}'.`, max, 'GreaterThanOrEqualValidator', { comparisonValue: min, comparisonProperty: 'Min' }),
        );
      }
      return specFailures(failures);
    },
  };
}

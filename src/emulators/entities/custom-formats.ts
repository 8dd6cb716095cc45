/**
 * /customformat: list, get, create, update, delete, schema. Creating a format adds it (score 0) at the
 * top of every quality profile's formatItems; deleting one removes it from them, as the apps'
 * QualityProfileService event handlers do.
 */
import type { CustomFormatResource, CustomFormatSpecificationSchema, Field } from '../../domain/app-resources';
import type { AppFacts, SpecFact, SpecFieldFact } from '../apps/facts';
import { httpErrors } from '../http-errors';
import { renderCustomFormat, renderCustomFormats } from '../render';
import type { RequestContext, Route } from '../router';
import { nextId, type EmulatorState } from '../state';
import { failure, rules, type Failure } from '../validation/failures';
import { customFormatWire } from '../wires';
import { accepted, check, created, deleted, ok, refuseInsertWithId, requireValidRouteId, validateForPost, validateForPut } from './rest';

interface BoundField {
  name: string | null;
  value: unknown;
}

interface BoundSpecification {
  name: string | null;
  implementation: string | null;
  negate: boolean;
  required: boolean;
  fields: BoundField[] | null;
}

interface BoundCustomFormat {
  id: number;
  name: string | null;
  includeCustomFormatWhenRenaming: boolean | null;
  specifications: BoundSpecification[] | null;
}

/** SchemaBuilder's value conversion for one field (lenient for numbers, strict JSON for strings and bools). */
function readFieldValue(field: SpecFieldFact, value: unknown): unknown {
  switch (field.clr) {
    case 'int': {
      const text = value === null || value === undefined ? null : typeof value === 'object' ? null : String(value).trim();
      if (text === null || !/^[+-]?\d+$/.test(text)) return 0;
      const parsed = Number(text);
      return parsed >= -2147483648 && parsed <= 2147483647 ? parsed : 0;
    }
    case 'double': {
      const text = value === null || value === undefined || typeof value === 'object' ? null : String(value).trim();
      const parsed = text === null || text === '' ? NaN : Number(text);
      return Number.isFinite(parsed) ? parsed : 0;
    }
    case 'bool':
      if (value === null || value === undefined) return false;
      if (typeof value === 'boolean') return value;
      throw httpErrors.unhandled('System.Text.Json.JsonException', 'The JSON value could not be converted to System.Boolean.');
    case 'string':
      if (value === null || value === undefined || typeof value === 'string') return value ?? null;
      throw httpErrors.unhandled('System.Text.Json.JsonException', 'The JSON value could not be converted to System.String.');
  }
}

/** SchemaBuilder.ToSchema: the field descriptors with their current values. */
export function renderFields(spec: SpecFact, values: Record<string, unknown>): Field[] {
  return spec.fields.map((field, order) => {
    const rendered: Field = {
      order,
      name: field.name,
      label: field.label,
      unit: field.unit,
      helpText: field.helpText,
      value: values[field.name],
      type: field.type,
      advanced: false,
      selectOptions: field.selectOptions ? field.selectOptions.map((option) => ({ ...option })) : undefined,
      privacy: 'normal',
      isFloat: field.clr === 'double',
    };
    return rendered;
  });
}

function defaultValue(field: SpecFieldFact): unknown {
  return field.clr === 'string' ? null : field.clr === 'bool' ? false : 0;
}

export function renderSpecification(spec: SpecFact, name: string | null, negate: boolean, required: boolean, values: Record<string, unknown>): CustomFormatSpecificationSchema {
  const schema: CustomFormatSpecificationSchema = {
    name,
    implementation: spec.implementation,
    implementationName: spec.implementationName,
    infoLink: spec.infoLink,
    negate,
    required,
    fields: renderFields(spec, values),
  };
  return schema;
}

/** The controller's shared validator (runs before the resource is mapped to a model). */
function sharedRules(facts: AppFacts, state: EmulatorState, resource: BoundCustomFormat): Failure[] {
  const failures = [...rules.notEmpty('Name', resource.name)];
  if (state.customFormats.some((format) => format.name === resource.name && format.id !== resource.id)) {
    failures.push(failure('Name', 'Must be unique.', resource.name, 'PredicateValidator'));
  }
  if (resource.specifications === null) {
    // Specifications.Any() on null inside a Custom rule.
    throw httpErrors.unhandled('System.ArgumentNullException', "Value cannot be null. (Parameter 'source')");
  }
  if (resource.specifications.length === 0) failures.push(rules.objectLevel('Must contain at least one Condition'));
  if (resource.specifications.some((spec) => spec.name === null || spec.name.trim() === '')) {
    failures.push(rules.objectLevel('Condition name(s) cannot be empty or consist of only spaces'));
  }
  if (facts.specificationsNotEmptyRule) failures.push(...rules.notEmpty('Specifications', resource.specifications));
  return failures;
}

/** ToModel + Validate(model): map each specification to its implementation and run its own validator. */
function toStoredSpecifications(facts: AppFacts, resource: BoundCustomFormat): CustomFormatSpecificationSchema[] {
  const mapped = (resource.specifications ?? []).map((bound) => {
    const spec = facts.specs.find((candidate) => candidate.implementation === bound.implementation);
    if (!spec) throw httpErrors.unhandled('System.ArgumentException', `${bound.implementation ?? ''} is not a valid specification implementation`);
    const values: Record<string, unknown> = {};
    for (const field of spec.fields) {
      const sent = (bound.fields ?? []).find((candidate) => candidate.name === field.name);
      values[field.name] = sent ? readFieldValue(field, sent.value) : defaultValue(field);
    }
    return { spec, bound, values };
  });
  for (const { spec, values } of mapped) {
    // The controller stops at the first specification whose validator fails.
    check(spec.validate(values));
  }
  return mapped.map(({ spec, bound, values }) => renderSpecification(spec, bound.name, bound.negate, bound.required, values));
}

function toStored(facts: AppFacts, resource: BoundCustomFormat, id: number): CustomFormatResource {
  return {
    id,
    name: resource.name ?? '',
    includeCustomFormatWhenRenaming: resource.includeCustomFormatWhenRenaming ?? false,
    specifications: toStoredSpecifications(facts, resource),
  };
}

function find(state: EmulatorState, id: number | undefined) {
  return state.customFormats.find((format) => format.id === id);
}

function render(state: EmulatorState, id: number) {
  return renderCustomFormat(find(state, id)!);
}

/** GET customformat/schema: every implementation with empty values, plus presets. */
function schema(facts: AppFacts, state: EmulatorState) {
  const presetsFor = (spec: SpecFact) => {
    const presets: CustomFormatSpecificationSchema[] = [];
    if (spec.implementation === 'ReleaseTitleSpecification') {
      for (const preset of facts.releaseTitlePresets) presets.push(renderSpecification(spec, preset.name, false, false, { value: preset.value }));
    }
    // Each condition of every existing format is offered as "<format>: <condition>".
    for (const format of state.customFormats) {
      for (const condition of format.specifications) {
        if (condition.implementation !== spec.implementation) continue;
        presets.push({ ...structuredClone(condition), name: `${format.name}: ${condition.name ?? ''}` });
      }
    }
    return presets;
  };
  return [...facts.specs]
    .sort((a, b) => a.order - b.order)
    .map((spec) => {
      const values = Object.fromEntries(spec.fields.map((field) => [field.name, defaultValue(field)]));
      return { ...renderSpecification(spec, null, false, false, values), presets: presetsFor(spec) };
    });
}

export function customFormatRoutes(): Route[] {
  return [
    { method: 'GET', pattern: 'customformat', handler: ({ state }) => ok(renderCustomFormats(state)) },
    { method: 'GET', pattern: 'customformat/schema', handler: ({ facts, state }) => ok(schema(facts, state)) },
    {
      method: 'GET',
      pattern: 'customformat/{id}',
      handler: ({ state, id }) => {
        if (!find(state, id)) throw httpErrors.notFound();
        return ok(render(state, id!));
      },
    },
    {
      method: 'POST',
      pattern: 'customformat',
      kind: 'customformat',
      handler: (ctx: RequestContext) => {
        const { facts, state } = ctx;
        const resource = ctx.body<BoundCustomFormat>(customFormatWire(facts));
        validateForPost(sharedRules(facts, state, resource));
        const stored = toStored(facts, resource, 0);
        refuseInsertWithId(resource);
        if (state.customFormats.some((format) => format.name === stored.name)) throw httpErrors.constraint('CustomFormats', 'Name');
        stored.id = nextId(state, 'customFormats');
        state.customFormats.push(stored);
        // CustomFormatAddedEvent: every profile gets the new format, score 0, at the top.
        for (const profile of state.qualityProfiles) profile.formatItems.unshift({ format: stored.id, score: 0 });
        ctx.touched(stored.id);
        return created(render(state, stored.id));
      },
    },
    {
      method: 'PUT',
      pattern: 'customformat/{id?}',
      kind: 'customformat',
      handler: (ctx: RequestContext) => {
        const { facts, state } = ctx;
        const resource = ctx.body<BoundCustomFormat>(customFormatWire(facts));
        validateForPut(ctx, resource, () => sharedRules(facts, state, resource));
        const stored = toStored(facts, resource, resource.id);
        const index = state.customFormats.findIndex((format) => format.id === resource.id);
        if (index < 0) throw httpErrors.modelNotFound('CustomFormat', resource.id);
        state.customFormats[index] = stored;
        ctx.touched(stored.id);
        return accepted(render(state, stored.id));
      },
    },
    {
      method: 'DELETE',
      pattern: 'customformat/{id}',
      kind: 'customformat',
      handler: (ctx: RequestContext) => {
        const { facts, state } = ctx;
        const id = requireValidRouteId(ctx);
        if (!find(state, id)) throw httpErrors.modelNotFound('CustomFormat', id);
        // CustomFormatDeletedEvent: profiles drop the format; a profile left without formats resets its scores.
        for (const profile of state.qualityProfiles) {
          profile.formatItems = profile.formatItems.filter((item) => item.format !== id);
          if (profile.formatItems.length === 0) {
            profile.minFormatScore = 0;
            profile.cutoffFormatScore = 0;
            if (facts.hasMinUpgradeFormatScore) profile.minUpgradeFormatScore = 1;
          }
        }
        state.customFormats = state.customFormats.filter((format) => format.id !== id);
        ctx.touched(id);
        return deleted();
      },
    },
  ];
}

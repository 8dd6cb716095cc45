/**
 * Request-body binding as the apps do it (ASP.NET Core + System.Text.Json with the apps' settings):
 * property names match case-insensitively, unknown properties are ignored, missing properties take
 * the .NET default of their type, numbers are never read from strings, value types (int, double,
 * bool, enums) reject null, enums accept their camelCase name (any case) or their integer value.
 * The first mismatch aborts binding, like a JsonException does.
 */

export type Wire =
  | { kind: 'int' }
  | { kind: 'double' }
  | { kind: 'bool' }
  | { kind: 'string' }
  | { kind: 'enum'; clr: string; names: readonly string[] }
  | { kind: 'nullable'; of: Wire }
  | { kind: 'array'; of: Wire; init?: 'empty' }
  | { kind: 'object'; clr: string; props: Record<string, Wire> }
  | { kind: 'any' };

export const w = {
  int: { kind: 'int' } as Wire,
  double: { kind: 'double' } as Wire,
  bool: { kind: 'bool' } as Wire,
  string: { kind: 'string' } as Wire,
  any: { kind: 'any' } as Wire,
  enumOf: (clr: string, names: readonly string[]): Wire => ({ kind: 'enum', clr, names }),
  nullable: (of: Wire): Wire => ({ kind: 'nullable', of }),
  list: (of: Wire, init?: 'empty'): Wire => ({ kind: 'array', of, init }),
  object: (clr: string, props: Record<string, Wire>): Wire & { kind: 'object' } => ({ kind: 'object', clr, props }),
};

const CLR: Record<string, string> = {
  int: 'System.Int32',
  double: 'System.Double',
  bool: 'System.Boolean',
  string: 'System.String',
};

export class BindingError extends Error {
  constructor(
    readonly path: string,
    readonly clrType: string,
  ) {
    super(`The JSON value could not be converted to ${clrType}. Path: ${path} | LineNumber: 0 | BytePositionInLine: 0.`);
  }
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function clrName(wire: Wire): string {
  switch (wire.kind) {
    case 'enum':
    case 'object':
      return wire.clr;
    case 'nullable':
      return `System.Nullable\`1[${clrName(wire.of)}]`;
    case 'array':
      return `System.Collections.Generic.List\`1[${clrName(wire.of)}]`;
    case 'any':
      return 'System.Object';
    default:
      return CLR[wire.kind];
  }
}

/** The value .NET gives a property that is absent from the JSON. */
export function defaultOf(wire: Wire): unknown {
  switch (wire.kind) {
    case 'int':
    case 'double':
      return 0;
    case 'bool':
      return false;
    case 'enum':
      return wire.names[0];
    case 'array':
      return wire.init === 'empty' ? [] : null;
    default:
      return null;
  }
}

/** Binds a parsed JSON value to a wire type; throws BindingError on the first mismatch. */
export function bind(value: unknown, wire: Wire, path = '$'): unknown {
  switch (wire.kind) {
    case 'int':
      if (typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) return value;
      throw new BindingError(path, clrName(wire));
    case 'double':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw new BindingError(path, clrName(wire));
    case 'bool':
      if (typeof value === 'boolean') return value;
      throw new BindingError(path, clrName(wire));
    case 'string':
      if (value === null || typeof value === 'string') return value;
      throw new BindingError(path, clrName(wire));
    case 'enum': {
      if (typeof value === 'string') {
        const found = wire.names.find((name) => name.toLowerCase() === value.trim().toLowerCase());
        if (found !== undefined) return found;
      } else if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < wire.names.length) {
        return wire.names[value];
      }
      throw new BindingError(path, clrName(wire));
    }
    case 'nullable':
      return value === null ? null : bind(value, wire.of, path);
    case 'array':
      if (value === null) return null;
      if (!Array.isArray(value)) throw new BindingError(path, clrName(wire));
      return value.map((item, index) => bind(item, wire.of, `${path}[${index}]`));
    case 'object': {
      if (value === null) return null;
      if (typeof value !== 'object' || Array.isArray(value)) throw new BindingError(path, clrName(wire));
      const source = value as Record<string, unknown>;
      const keys = Object.keys(source);
      const result: Record<string, unknown> = {};
      for (const [prop, propWire] of Object.entries(wire.props)) {
        // Case-insensitive, the last matching key wins (as System.Text.Json reads them in order).
        const matches = keys.filter((key) => key.toLowerCase() === prop.toLowerCase());
        if (matches.length === 0) {
          result[prop] = defaultOf(propWire);
          continue;
        }
        const key = matches[matches.length - 1];
        result[prop] = bind(source[key], propWire, `${path}.${key}`);
      }
      return result;
    }
    case 'any':
      return value;
  }
}

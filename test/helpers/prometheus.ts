/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), for tests: every line
 * must be a HELP, a TYPE, a comment or a well-formed sample, label values are unescaped, a family's
 * TYPE comes once and before its samples, and no series appears twice. Anything else throws.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count', ''], counter: ['', '_total'], gauge: [''], untyped: [''] };

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const lines = text.split('\n');
  if (lines[lines.length - 1] !== '') throw new Error('exposition must end with a line feed');
  lines.pop();
  lines.forEach((line, index) => {
    const where = `line ${index + 1}`;
    if (line === '') return;
    if (line.startsWith('#')) {
      const match = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
      if (!match) return; // a plain comment
      const [, keyword, name, rest = ''] = match;
      if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name ${name}`);
      const family = families.get(name) ?? { name, type: 'untyped' as const, help: '', samples: [] };
      if (keyword === 'HELP') family.help = rest.replace(/\\(n|\\)/g, (_m, c: string) => (c === 'n' ? '\n' : '\\'));
      else {
        if (!TYPES.has(rest)) throw new Error(`${where}: unknown type ${rest}`);
        if (families.get(name)?.samples.length) throw new Error(`${where}: TYPE of ${name} after its samples`);
        if (families.has(name) && families.get(name)!.type !== 'untyped') throw new Error(`${where}: second TYPE of ${name}`);
        family.type = rest as Family['type'];
      }
      families.set(name, family);
      return;
    }
    const sample = parseSample(line, where);
    const family = familyOf(families, sample.name);
    if (!family) throw new Error(`${where}: sample ${sample.name} has no TYPE`);
    const key = `${sample.name}{${Object.entries(sample.labels).sort().map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}}`;
    if (seen.has(key)) throw new Error(`${where}: duplicate series ${key}`);
    seen.add(key);
    if (family.type === 'histogram' && sample.name.endsWith('_bucket') && sample.labels.le === undefined) throw new Error(`${where}: bucket without le`);
    family.samples.push(sample);
  });
  return families;
}

function familyOf(families: Map<string, Family>, sampleName: string): Family | undefined {
  for (const family of families.values()) {
    for (const suffix of SUFFIXES[family.type]) if (sampleName === family.name + suffix) return family;
  }
  return undefined;
}

function parseSample(line: string, where: string): Sample {
  let i = 0;
  const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
  if (!nameMatch) throw new Error(`${where}: bad sample name`);
  const name = nameMatch[0];
  i = name.length;
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    while (line[i] !== '}') {
      const labelMatch = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(i));
      if (!labelMatch || !LABEL_NAME.test(labelMatch[0])) throw new Error(`${where}: bad label name`);
      const label = labelMatch[0];
      i += label.length;
      if (line[i] !== '=' || line[i + 1] !== '"') throw new Error(`${where}: label ${label} without ="`);
      i += 2;
      let value = '';
      while (line[i] !== '"') {
        if (i >= line.length) throw new Error(`${where}: unterminated label value`);
        if (line[i] === '\\') {
          const next = line[i + 1];
          if (next === 'n') value += '\n';
          else if (next === '\\' || next === '"') value += next;
          else throw new Error(`${where}: bad escape \\${next}`);
          i += 2;
        } else value += line[i++];
      }
      i++;
      if (label in labels) throw new Error(`${where}: label ${label} twice`);
      labels[label] = value;
      if (line[i] === ',') i++;
      else if (line[i] !== '}') throw new Error(`${where}: expected , or } after label ${label}`);
    }
    i++;
  }
  if (line[i] !== ' ') throw new Error(`${where}: expected a space before the value`);
  const parts = line.slice(i + 1).split(' ');
  if (parts.length < 1 || parts.length > 2) throw new Error(`${where}: expected a value and an optional timestamp`);
  const value = parseValue(parts[0], where);
  if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`${where}: bad timestamp`);
  return { name, labels, value };
}

function parseValue(text: string, where: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`${where}: bad value ${text}`);
  return Number(text);
}

/** The value of one series (labels matched exactly on the given subset), or undefined. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const family of families.values()) {
    for (const s of family.samples) {
      if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
    }
  }
  return undefined;
}

/** The sum over every series of a sample name whose labels include the given subset. */
export function sampleSum(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const family of families.values()) {
    for (const s of family.samples) if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) sum += s.value;
  }
  return sum;
}

/**
 * Reads a guide written in Markdown into runnable steps. Fenced blocks are marked by an HTML comment
 * on the line before them:
 *   <!-- guide: not run … -->  shown only (starting the service, for example);
 *   <!-- guide: emulators -->  lines `npm run emulator -- ARGS &`, started by the test;
 *   <!-- guide: settings -->   lines `NAME=value`, replaced by the test's own values;
 *   <!-- guide: preamble -->   code every later step runs first (helper functions);
 *   <!-- guide: output -->     the JSON the block before it prints;
 *   <!-- guide: refused -->    a step whose request arrgo refuses (curl exits non-zero).
 * Every other `sh` block is a step, run in order.
 */
export interface GuideBlock {
  lang: string;
  marker: string | null;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export interface GuideStep {
  block: GuideBlock;
  expected: GuideBlock | null;
  /** The step shows a refusal: its last request must fail. */
  refused: boolean;
}

export interface Guide {
  emulatorCommands: string[][];
  settings: [string, string][];
  preamble: GuideBlock[];
  steps: GuideStep[];
}

export function guideBlocks(markdown: string): GuideBlock[] {
  const lines = markdown.split('\n');
  const blocks: GuideBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)/.exec(lines[i]);
    if (!open) continue;
    const markerLine = i > 0 ? /^<!--\s*guide:\s*([a-z-]+(?: [a-z]+)?)/.exec(lines[i - 1]) : null;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
    blocks.push({ lang: open[1], marker: markerLine ? markerLine[1] : null, code: body.join('\n'), line: start + 1 });
  }
  return blocks;
}

export function guideSteps(markdown: string): Guide {
  const guide: Guide = { emulatorCommands: [], settings: [], preamble: [], steps: [] };
  for (const block of guideBlocks(markdown)) {
    switch (block.marker) {
      case 'not run':
        break;
      case 'emulators':
        for (const line of block.code.split('\n').filter((l) => l.trim())) {
          const command = /^npm run emulator -- (.+?)\s*&?$/.exec(line.trim());
          if (!command) throw new Error(`line ${block.line}: not an emulator command: ${line}`);
          guide.emulatorCommands.push(command[1].split(/\s+/));
        }
        break;
      case 'settings':
        for (const line of block.code.split('\n').filter((l) => l.trim())) {
          const setting = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
          if (!setting) throw new Error(`line ${block.line}: not a setting: ${line}`);
          guide.settings.push([setting[1], setting[2]]);
        }
        break;
      case 'preamble':
        guide.preamble.push(block);
        break;
      case 'output': {
        const last = guide.steps.at(-1);
        if (!last || last.expected) throw new Error(`line ${block.line}: an output block must follow a step`);
        last.expected = block;
        break;
      }
      case 'refused':
      case null:
        if (block.lang === 'sh') guide.steps.push({ block, expected: null, refused: block.marker === 'refused' });
        break;
      default:
        throw new Error(`line ${block.line}: unknown guide marker "${block.marker}"`);
    }
  }
  return guide;
}

/** The JSON values in a text, one after another (jq prints one per result). */
export function jsonDocuments(text: string): unknown[] {
  const docs: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      if (depth === 0) throw new Error('top-level strings are not supported');
      inString = true;
    } else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if (c === '}' || c === ']') {
      if (--depth === 0) docs.push(JSON.parse(text.slice(start, i + 1)));
    } else if (depth === 0 && c.trim()) {
      throw new Error(`unexpected text outside JSON: ${text.slice(i, i + 40)}`);
    }
  }
  if (depth !== 0) throw new Error('unterminated JSON');
  return docs;
}

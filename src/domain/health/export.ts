/**
 * Trend export rendering (pure): the JSON envelope and the CSV, byte-for-byte reproducible for the
 * same envelope, the attachment filename and the response headers. Limits are enforced by
 * buildTrend before anything is rendered, so both formats are refused or served whole.
 *
 * CSV (RFC 4180): UTF-8 without BOM, every line (the header included) ends with CRLF, fields are
 * quoted only when they contain a comma, a double quote, CR or LF (quotes doubled); null is an
 * empty field. Columns, fixed: snapshotId, generatedAt, engineVersion, state, band, score,
 * criteria (a JSON array of {id, state, score, weight, contribution}, in that key order; [] when
 * empty). An empty selection is the header line alone.
 */
import { validationError } from '../../errors';
import type { TrendEnvelope, TrendFormat, TrendPoint } from './trends';

export const CSV_COLUMNS = ['snapshotId', 'generatedAt', 'engineVersion', 'state', 'band', 'score', 'criteria'] as const;
export const CSV_LINE_END = '\r\n';

/** RFC 4180 field: quoted only when needed. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function criteriaCell(point: TrendPoint): string {
  return JSON.stringify(point.criteria.map((c) => ({ id: c.id, state: c.state, score: c.score, weight: c.weight, contribution: c.contribution })));
}

export function csvRow(point: TrendPoint): string {
  return [point.snapshotId, point.generatedAt, point.engineVersion, point.state, point.band, point.score, criteriaCell(point)].map(csvField).join(',');
}

/** The CSV text of a trend selection (header, then one row per canonical point). */
export function trendCsv(envelope: Pick<TrendEnvelope, 'points'>): string {
  return [CSV_COLUMNS.join(','), ...envelope.points.map(csvRow)].map((line) => line + CSV_LINE_END).join('');
}

/** The JSON text of the envelope: compact, keys in the envelope's fixed order, no trailing newline. */
export function trendJson(envelope: TrendEnvelope): string {
  return JSON.stringify(envelope);
}

export const CONTENT_TYPES: Readonly<Record<TrendFormat, string>> = Object.freeze({
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
});

/** `arrgo-health-<instanceId>-<YYYYMMDDTHHMMSSZ>.<csv|json>` from the numeric id and the server time (UTC, seconds). */
export function exportFilename(instanceId: number, serverTime: Date | string, format: TrendFormat): string {
  if (!Number.isSafeInteger(instanceId) || instanceId < 0) throw validationError('instanceId must be a non-negative integer');
  const ms = serverTime instanceof Date ? serverTime.getTime() : Date.parse(serverTime);
  if (!Number.isFinite(ms)) throw validationError('invalid server time for the export filename');
  const stamp = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  return `arrgo-health-${instanceId}-${stamp}.${format}`;
}

/** The export's body and headers (attachment, no storage, no sniffing). */
export function renderTrendExport(
  envelope: TrendEnvelope,
  format: TrendFormat,
  serverTime: Date | string,
): { body: string; filename: string; headers: Record<string, string> } {
  const filename = exportFilename(envelope.instance.instanceId, serverTime, format);
  const body = format === 'csv' ? trendCsv(envelope) : trendJson(envelope);
  return {
    body,
    filename,
    headers: {
      'Content-Type': CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  };
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "3 minutes ago", "in 2 hours". */
export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(0, 'second');
}

/** "2 h 5 min", "45 s": how long something has lasted. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A time shown relative to now, with the exact time for hover and screen readers. */
export function TimeAgo({ iso, fallback = 'never' }: { iso: string | null | undefined; fallback?: string }) {
  if (!iso) return <>{fallback}</>;
  const exact = new Date(iso).toLocaleString();
  return (
    <time dateTime={iso} title={exact}>
      {formatRelative(iso)}
    </time>
  );
}

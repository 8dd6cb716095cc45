// The charting library (Recharts through @mantine/charts) lives in this module only: the health
// page loads it when it shows a trend, so the first page stays small.
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import type { HealthTrend } from '../../api/config-health';

const day = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** The library also asks for labels of no point (an inactive tooltip): those are empty. */
const timeLabel = (format: Intl.DateTimeFormat) => (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? format.format(value) : '');

/** Score over time; points that were not measured (unknown, profile missing, not recorded) are gaps. */
export default function TrendChart({ trend, label }: { trend: HealthTrend; label: string }) {
  const data = trend.points.map((point) => ({ at: Date.parse(point.generatedAt), score: point.score }));
  return (
    <div role="img" aria-label={label}>
      <LineChart
        h={240}
        data={data}
        dataKey="at"
        series={[{ name: 'score', label: 'Score', color: 'teal.5' }]}
        curveType="linear"
        connectNulls={false}
        withDots={data.length <= 60}
        yAxisProps={{ domain: [0, 100], width: 40 }}
        xAxisProps={{ type: 'number', scale: 'time', domain: ['dataMin', 'dataMax'], tickFormatter: timeLabel(day) }}
        tooltipProps={{ labelFormatter: timeLabel(moment) }}
        lineChartProps={{ accessibilityLayer: false }}
      />
    </div>
  );
}

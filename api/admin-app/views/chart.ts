// The delivery history chart: one group of bars per day (deliveries, failures), drawn as SVG on the server so the
// page needs no charting script; the numbers are also in the table beside it for screen readers.
import type { DailyStats } from '../../../domain/webhooks/deliveries.js';
import { html } from './html.js';

const WIDTH = 560;
const HEIGHT = 160;
const PAD_BOTTOM = 22;
const PAD_TOP = 10;

export function deliveryChart(days: DailyStats[]) {
  const most = Math.max(1, ...days.map((day) => day.attempts));
  const slot = WIDTH / days.length;
  const barWidth = Math.min(28, slot / 3);
  const scale = (count: number) => ((HEIGHT - PAD_BOTTOM - PAD_TOP) * count) / most;
  const bars = days.map((day, index) => {
    const x = index * slot + slot / 2 - barWidth;
    const successes = scale(day.successes);
    const failures = scale(day.failures);
    const base = HEIGHT - PAD_BOTTOM;
    return html`<g>
  <rect class="ok" x="${x.toFixed(1)}" y="${(base - successes).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${successes.toFixed(1)}"><title>${day.day}: ${day.successes} delivered</title></rect>
  <rect class="failed" x="${(x + barWidth).toFixed(1)}" y="${(base - failures).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${failures.toFixed(1)}"><title>${day.day}: ${day.failures} failed</title></rect>
  <text x="${(index * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 6}" text-anchor="middle">${day.day.slice(5)}</text>
</g>`;
  });
  return html`<div class="chart-box"><svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Attempts per day for the last ${days.length} days: delivered and failed">
  <line class="axis" x1="0" y1="${HEIGHT - PAD_BOTTOM}" x2="${WIDTH}" y2="${HEIGHT - PAD_BOTTOM}"></line>
  ${bars}
</svg>
<p class="legend"><span class="swatch ok"></span> delivered <span class="swatch failed"></span> failed</p></div>`;
}

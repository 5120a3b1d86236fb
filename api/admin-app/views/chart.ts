// The delivery history charts, drawn as SVG on the server so the page needs no charting script: attempts per day
// (delivered and failed bars) and response time per day (p50 and p95 lines), each with a y-axis that says its unit,
// gridlines at round values, the days along x, and a legend. The numbers are also in the table beside them for
// screen readers.
import type { DailyStats } from '../../../domain/webhooks/deliveries.js';
import { html, type Html } from './html.js';

const WIDTH = 560;
const HEIGHT = 190;
const PAD_LEFT = 44;
const PAD_RIGHT = 8;
const PAD_TOP = 12;
const PAD_BOTTOM = 24;
const PLOT_WIDTH = WIDTH - PAD_LEFT - PAD_RIGHT;
const BASELINE = HEIGHT - PAD_BOTTOM;

/** Gridline values from 0 to a round top at or above `most`: steps of 1, 2 or 5 times a power of ten. */
function axisTicks(most: number, wanted = 4): number[] {
  if (most <= 0) return [0, 1];
  const rough = most / wanted;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!;
  const stepInt = Math.max(1, step);
  const ticks = [];
  for (let value = 0; value < most + stepInt; value += stepInt) ticks.push(value);
  return ticks;
}

/** The frame both charts share: gridlines with their values, the unit, and the days along the bottom. */
function frame(
  days: DailyStats[],
  ticks: number[],
  unit: string,
  plot: (y: (value: number) => number) => Html[],
) {
  const top = ticks[ticks.length - 1]!;
  const y = (value: number) => BASELINE - ((BASELINE - PAD_TOP) * value) / top;
  const slot = PLOT_WIDTH / days.length;
  return html`<g class="y-axis">
  ${ticks.map(
    (
      tick,
    ) => html`<line class="grid" x1="${PAD_LEFT}" y1="${y(tick).toFixed(1)}" x2="${WIDTH - PAD_RIGHT}" y2="${y(tick).toFixed(1)}"></line>
  <text x="${PAD_LEFT - 6}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end">${tick.toLocaleString('en')}</text>`,
  )}
  <text class="unit" x="4" y="${PAD_TOP - 2}">${unit}</text>
  <line class="axis" x1="${PAD_LEFT}" y1="${PAD_TOP}" x2="${PAD_LEFT}" y2="${BASELINE}"></line>
</g>
<line class="axis" x1="${PAD_LEFT}" y1="${BASELINE}" x2="${WIDTH - PAD_RIGHT}" y2="${BASELINE}"></line>
<g class="x-axis">${days.map((day, index) => html`<text x="${(PAD_LEFT + index * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 7}" text-anchor="middle">${day.day.slice(5)}</text>`)}</g>
${plot(y)}`;
}

export function deliveryChart(days: DailyStats[]) {
  const ticks = axisTicks(Math.max(0, ...days.map((day) => Math.max(day.successes, day.failures))));
  const slot = PLOT_WIDTH / days.length;
  const barWidth = Math.min(26, slot / 3);
  const bars = (y: (value: number) => number) =>
    days.map((day, index) => {
      const x = PAD_LEFT + index * slot + slot / 2 - barWidth;
      return html`<g>
  <rect class="ok" x="${x.toFixed(1)}" y="${y(day.successes).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(BASELINE - y(day.successes)).toFixed(1)}"><title>${day.day}: ${day.successes} delivered</title></rect>
  <rect class="failed" x="${(x + barWidth).toFixed(1)}" y="${y(day.failures).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(BASELINE - y(day.failures)).toFixed(1)}"><title>${day.day}: ${day.failures} failed</title></rect>
</g>`;
    });
  return html`<figure class="chart-box">
  <figcaption>Attempts per day (UTC)</figcaption>
  <svg class="chart attempts-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Attempts per day for the last ${days.length} days: delivered and failed">
  ${frame(days, ticks, 'attempts', bars)}
</svg>
  <p class="legend"><span class="swatch ok"></span> delivered <span class="swatch failed"></span> failed</p>
</figure>`;
}

export function responseTimeChart(days: DailyStats[]) {
  const ticks = axisTicks(Math.max(0, ...days.map((day) => day.p95_ms ?? day.p50_ms ?? 0)));
  const slot = PLOT_WIDTH / days.length;
  const x = (index: number) => PAD_LEFT + index * slot + slot / 2;
  // A day without attempts has no response time: the line breaks there instead of dropping to zero.
  const line = (y: (value: number) => number, key: 'p50_ms' | 'p95_ms') => {
    const points = days.map((day, index) =>
      day[key] === null ? null : `${x(index).toFixed(1)},${y(day[key]!).toFixed(1)}`,
    );
    const runs: string[][] = [[]];
    for (const point of points) {
      if (point) runs[runs.length - 1]!.push(point);
      else if (runs[runs.length - 1]!.length) runs.push([]);
    }
    return html`${runs
      .filter((run) => run.length)
      .map((run) => html`<polyline class="${key}" points="${run.join(' ')}"></polyline>`)}
${days.map((day, index) => (day[key] === null ? '' : html`<circle class="${key}" cx="${x(index).toFixed(1)}" cy="${y(day[key]!).toFixed(1)}" r="3"><title>${day.day}: ${key === 'p50_ms' ? 'p50' : 'p95'} ${day[key]} ms</title></circle>`))}`;
  };
  return html`<figure class="chart-box">
  <figcaption>Response time per day (UTC)</figcaption>
  <svg class="chart latency-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Median and 95th percentile response time per day for the last ${days.length} days, in milliseconds">
  ${frame(days, ticks, 'ms', (y) => [line(y, 'p95_ms'), line(y, 'p50_ms')])}
</svg>
  <p class="legend"><span class="swatch p50"></span> p50 <span class="swatch p95"></span> p95</p>
</figure>`;
}

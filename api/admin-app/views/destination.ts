// One destination: its switch, its signing secret behind a reveal, and its delivery history (charts, and the
// attempts with what the receiver answered, filtered and paged). The history is one region the page's script
// refreshes in place while the tab is visible (`activityFragment`, docs/admin-app.md § Live history).
import type { DailyStats, TypedAttemptRow } from '../../../domain/webhooks/deliveries.js';
import { deliveryId } from '../../../domain/webhooks/deliveries.js';
import type { Destination, SecretReveal } from '../../../domain/webhooks/destinations.js';
import { WEBHOOK_TEST, eventId } from '../../../domain/webhooks/events.js';
import { deliveryChart, responseTimeChart } from './chart.js';
import { NOTICES, statusBadge, type Notice } from './destinations.js';
import { html, type Html } from './html.js';
import { actionForm, formatTime, layout, type PageContext } from './layout.js';

/** The outcomes the history can be narrowed to, as the filter names them, and the attempt outcome each means. */
export const OUTCOME_FILTERS = {
  succeeded: { outcome: 'success', label: 'Succeeded' },
  failed: { outcome: 'failure', label: 'Failed' },
  in_flight: { outcome: 'pending', label: 'In flight' },
} as const;
export type OutcomeFilter = keyof typeof OUTCOME_FILTERS;

/** The history's filters as the query string carries them (dates are UTC days, both ends included). */
export interface HistoryFilters {
  outcome?: OutcomeFilter;
  from?: string;
  to?: string;
}

export interface DestinationView {
  destination: Destination;
  mailboxAddress: Map<string, string>;
  stats: DailyStats[];
  attempts: TypedAttemptRow[];
  /** How many attempts the retry schedule gives a delivery (the N of an attempt's "n of N"). */
  attemptsPerDelivery: number;
  /** When each waiting delivery (`<event uuid>/<round>`) makes its next attempt. */
  nextAttemptAt: Map<string, { attempt: number; at: Date }>;
  filters: HistoryFilters;
  /** Set when the query string's filters were refused (the page then answers 400 and lists nothing). */
  filterError?: string;
  /** The cursor of the page shown (absent on the newest page) and of the one after it. */
  cursor?: string;
  nextCursor: string | null;
  reveals: SecretReveal[];
  /** Present only on the answer to a reveal. */
  secrets?: { signingSecret: string; previousSigningSecret: string | null; previousExpiresAt: Date | null };
  notice?: Notice;
}

const ms = (value: number | null) =>
  value === null ? html`<span class="muted">—</span>` : html`${value} ms`;

function switchSection(page: PageContext, destination: Destination) {
  const base = `${page.base}/webhooks/${destination.uuid}`;
  if (destination.status === 'disabled') {
    return html`<section class="card warning" aria-labelledby="disabled-title">
  <h2 id="disabled-title">Disabled ${formatTime(destination.disabled_at)}</h2>
  <p>${destination.disabled_reason ?? 'Disabled.'}</p>
  <p>Events that arrived while it was disabled are not replayed when you turn it on.</p>
  ${actionForm(page, `${base}/enable`, 'Turn on', { style: 'primary' })}
</section>`;
  }
  const paused = destination.status === 'paused';
  return html`<section class="card" aria-labelledby="status-title">
  <h2 id="status-title">Deliveries</h2>
  <p>${
    paused
      ? 'Paused: events that occur while paused are not queued and are not replayed when you resume.'
      : 'Active: each e-mail is delivered within moments of arriving. While paused, events are not queued and are never replayed.'
  }</p>
  ${actionForm(page, `${base}/${paused ? 'resume' : 'pause'}`, paused ? 'Resume deliveries' : 'Pause deliveries', { style: paused ? 'primary' : 'plain' })}
</section>`;
}

function secretSection(page: PageContext, view: DestinationView) {
  const base = `${page.base}/webhooks/${view.destination.uuid}`;
  const { secrets } = view;
  return html`<section class="card" aria-labelledby="secret-title">
  <h2 id="secret-title">Signing secret</h2>
  <p class="muted small">Verify the <code>X-Service-Signature</code> header of each request with it (HMAC-SHA256).</p>
  ${
    secrets
      ? html`<div class="secret" data-secret>
    <code id="signing-secret">${secrets.signingSecret}</code>
    <button type="button" class="button plain" data-copy="#signing-secret">Copy</button>
    <a class="button plain" href="${base}">Hide</a>
  </div>
  ${
    secrets.previousSigningSecret
      ? html`<p class="small">Previous secret, still signing until ${formatTime(secrets.previousExpiresAt)}: <code>${secrets.previousSigningSecret}</code></p>`
      : ''
  }`
      : html`<div class="secret">
    <code aria-label="Hidden secret">whsec_••••••••••••••••••••••••</code>
    ${actionForm(page, `${base}/secret`, 'Reveal', { style: 'plain' })}
  </div>`
  }
  <div class="actions">
    ${actionForm(page, `${base}/rotate-secret`, 'Rotate secret', { style: 'danger', confirm: 'Issue a new signing secret? The current one keeps signing for 24 hours.' })}
  </div>
  <details class="reveals">
    <summary>Reveal history (${view.reveals.length})</summary>
    ${
      view.reveals.length
        ? html`<ul>${view.reveals.map((reveal) => html`<li>${formatTime(reveal.revealed_at)} · ${reveal.email ?? 'an operator'} · ${reveal.via === 'admin_app' ? 'admin app' : reveal.via === 'api' ? 'admin API' : 'CLI'}</li>`)}</ul>`
        : html`<p class="muted small">Never revealed.</p>`
    }
  </details>
</section>`;
}

/**
 * Which attempt this was, in words that fit its schedule (docs/admin-app.md § The destination page): only the spec's
 * own delivery of an event is "n of N" towards disabling, N the attempts of the configured retry schedule (5 by the
 * spec's); a webhook.test is sent once, and a resend is a round of its own, numbered from 1 and never counted towards
 * disabling.
 */
function attemptLabel(
  attempt: Pick<TypedAttemptRow, 'event_type' | 'round' | 'attempt'>,
  attemptsPerDelivery: number,
): string {
  if (attempt.event_type === WEBHOOK_TEST)
    return attempt.round > 0 ? `Test resend ${attempt.round}, sent once` : 'Test, sent once';
  if (attempt.round > 0) return `Resend ${attempt.round}, attempt ${attempt.attempt}`;
  return `${attempt.attempt} of ${attemptsPerDelivery}`;
}

/** The receiver's headers as kept (a repeated header as a list), one line each. */
const headerPairs = (headers: TypedAttemptRow['response_headers']): [string, string][] =>
  Object.entries(headers ?? {}).map(([name, value]) => [
    name,
    Array.isArray(value) ? value.join(', ') : value,
  ]);

const waitingKey = (attempt: Pick<TypedAttemptRow, 'event_uuid' | 'round'>) =>
  `${attempt.event_uuid}/${attempt.round}`;

function resultText(attempt: TypedAttemptRow): string {
  if (attempt.outcome === 'pending') return 'in flight';
  return attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error_class ?? 'error');
}

/** What the receiver answered: status, headers and the kept start of the body, all escaped by `html`. */
function answerBlock(attempt: TypedAttemptRow) {
  if (attempt.outcome === 'pending') return html`<p class="muted small">No answer yet.</p>`;
  const headers = headerPairs(attempt.response_headers);
  const body = attempt.response_body;
  // The sender keeps at most the first 4,096 characters (migration 026); a body that long was probably cut.
  const size =
    body && body.length >= 4096 ? 'its first 4 KB' : `${(body ?? '').length.toLocaleString('en')} characters`;
  return html`<h4>Response</h4>
    <dl class="headers">
      <dt>status</dt><dd>${attempt.status_code !== null ? `HTTP ${attempt.status_code}` : `none (${attempt.error_class ?? 'error'})`}${attempt.response_time_ms !== null ? ` in ${attempt.response_time_ms} ms` : ''}</dd>
      ${headers.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}
    </dl>
    ${
      body === null
        ? html`<p class="muted small">No body kept.</p>`
        : html`<details class="body" data-keep-open="${attempt.uuid}/body">
      <summary>Response body (${body.length ? size : 'empty'})</summary>
      <pre class="response-body">${body}</pre>
    </details>`
    }`;
}

function attemptRows(page: PageContext, view: DestinationView) {
  return view.attempts.map((attempt) => {
    const waiting = view.nextAttemptAt.get(waitingKey(attempt));
    // Only the latest attempt of a delivery that waits says when the next one goes.
    const next = waiting && waiting.attempt === attempt.attempt ? waiting.at : undefined;
    return html`<tr class="attempt ${attempt.outcome}" data-attempt="${attempt.uuid}">
  <td data-label="Time">${formatTime(attempt.started_at)}</td>
  <td data-label="Event"><div><code class="id">${eventId(attempt.event_uuid)}</code><br><span class="muted small">${attempt.event_type}</span></div></td>
  <td data-label="Attempt">${attemptLabel(attempt, view.attemptsPerDelivery)}</td>
  <td data-label="Result"><div><span class="outcome ${attempt.outcome}">${resultText(attempt)}</span>${next ? html`<div class="next-attempt small">Next attempt ${formatTime(next)}</div>` : ''}</div></td>
  <td data-label="Response time">${ms(attempt.response_time_ms)}</td>
  <td class="details-cell"><details data-keep-open="${attempt.uuid}">
    <summary>Details</summary>
    <h4>Request</h4>
    <dl class="headers">
      <dt>POST</dt><dd>${view.destination.url}</dd>
      <dt>content-type</dt><dd>application/json</dd>
      <dt>user-agent</dt><dd>Folio-Webhooks/1</dd>
      <dt>x-service-event</dt><dd>${attempt.event_type}</dd>
      <dt>x-service-delivery-id</dt><dd>${deliveryId(attempt.uuid)}</dd>
      <dt>x-service-attempt</dt><dd>${attempt.attempt}</dd>
      <dt>x-service-signature</dt><dd>t=…,v1=… <span class="muted">(HMAC of the body; not kept)</span></dd>
    </dl>
    ${answerBlock(attempt)}
    ${actionForm(page, `${page.base}/webhooks/${view.destination.uuid}/events/${eventId(attempt.event_uuid)}/resend`, 'Resend event', { confirm: 'Send this event to the destination again?' })}
  </details></td>
</tr>`;
  });
}

/** The query string of the filters (and a cursor), for links and the live refresh. */
function historyQuery(filters: HistoryFilters, cursor?: string): string {
  const query = new URLSearchParams();
  if (filters.outcome) query.set('outcome', filters.outcome);
  if (filters.from) query.set('from', filters.from);
  if (filters.to) query.set('to', filters.to);
  if (cursor) query.set('before', cursor);
  const text = query.toString();
  return text ? `?${text}` : '';
}

function filterForm(page: PageContext, view: DestinationView) {
  const base = `${page.base}/webhooks/${view.destination.uuid}`;
  const { filters } = view;
  const filtered = Boolean(filters.outcome || filters.from || filters.to);
  return html`<form method="get" action="${base}" class="filters" aria-label="Filter attempts">
  <div class="field"><label for="filter-outcome">Outcome</label>
    <select id="filter-outcome" name="outcome">
      <option value="">Any</option>
      ${Object.entries(OUTCOME_FILTERS).map(([value, { label }]) => html`<option value="${value}"${filters.outcome === value ? ' selected' : ''}>${label}</option>`)}
    </select></div>
  <div class="field"><label for="filter-from">From (UTC)</label>
    <input type="date" id="filter-from" name="from" value="${filters.from ?? ''}"${view.filterError ? ' aria-invalid="true" aria-describedby="filter-error"' : ''}></div>
  <div class="field"><label for="filter-to">To (UTC)</label>
    <input type="date" id="filter-to" name="to" value="${filters.to ?? ''}"${view.filterError ? ' aria-invalid="true" aria-describedby="filter-error"' : ''}></div>
  <div class="filter-actions">
    <button type="submit" class="button plain">Apply</button>
    ${filtered ? html`<a class="button plain" href="${base}#attempts-title">Clear</a>` : ''}
  </div>
  ${view.filterError ? html`<p class="error" id="filter-error">${view.filterError}</p>` : ''}
</form>`;
}

function attemptsSection(page: PageContext, view: DestinationView) {
  const base = `${page.base}/webhooks/${view.destination.uuid}`;
  const filtered = Boolean(view.filters.outcome || view.filters.from || view.filters.to);
  const empty = filtered
    ? 'No attempts match these filters.'
    : 'No attempts yet. They appear here as mail arrives in a subscribed mailbox.';
  const waiting = [...view.nextAttemptAt.values()].sort((a, b) => a.at.getTime() - b.at.getTime());
  return html`${
    waiting.length
      ? html`<p class="waiting small" role="status">${waiting.length === 1 ? '1 delivery waits' : `${waiting.length} deliveries wait`} to retry; the next attempt is ${formatTime(waiting[0]!.at)}.</p>`
      : ''
  }
  ${
    view.attempts.length
      ? html`<div class="table-wrap"><table class="attempts stacked">
    <thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Result</th><th scope="col">Response time</th><th scope="col"><span class="visually-hidden">Details</span></th></tr></thead>
    <tbody>${attemptRows(page, view)}</tbody>
  </table></div>`
      : html`<p class="muted">${view.filterError ? 'Nothing is listed until the filters are corrected.' : empty}</p>`
  }
  <p class="pager">
    ${view.cursor ? html`<a class="button plain" href="${base}${historyQuery(view.filters)}#attempts-title">Newest attempts</a>` : ''}
    ${view.nextCursor ? html`<a class="button plain" rel="next" href="${base}${historyQuery(view.filters, view.nextCursor)}#attempts-title">Older attempts</a>` : ''}
  </p>`;
}

function historyCard(view: DestinationView) {
  return html`<section class="card" aria-labelledby="history-title" id="history" data-live-part>
  <h2 id="history-title">Last 7 days</h2>
  <div class="history">
    <div class="charts">
      ${deliveryChart(view.stats)}
      ${responseTimeChart(view.stats)}
    </div>
    <div class="table-wrap"><table class="stats">
      <thead><tr><th scope="col">Day (UTC)</th><th scope="col">Attempts</th><th scope="col">Failed</th><th scope="col">p50</th><th scope="col">p95</th></tr></thead>
      <tbody>${view.stats.map((day) => html`<tr><td>${day.day}</td><td>${day.attempts}</td><td>${day.failures}</td><td>${ms(day.p50_ms)}</td><td>${ms(day.p95_ms)}</td></tr>`)}</tbody>
    </table></div>
  </div>
</section>`;
}

const attemptList = (page: PageContext, view: DestinationView) =>
  html`<div id="attempt-list" data-live-part>${attemptsSection(page, view)}</div>`;

/**
 * The parts of the page that change while deliveries run (the charts and day table, the attempts), each marked
 * data-live-part: served alone at <destination>/activity, the script swaps each for the part of the same id.
 */
export function activityFragment(page: PageContext, view: DestinationView): Html {
  return html`${historyCard(view)}
${attemptList(page, view)}`;
}

export function destinationPage(page: PageContext, view: DestinationView) {
  const { destination } = view;
  const base = `${page.base}/webhooks/${destination.uuid}`;
  return layout(
    page,
    destination.url,
    html`<p class="crumbs"><a href="${page.base}/webhooks">Webhooks</a> / Destination</p>
<div class="page-head">
  <div class="page-title">
    <h1 class="url">${destination.url} ${statusBadge(destination)}</h1>
    ${destination.description ? html`<p>${destination.description}</p>` : ''}
    <p class="muted small">Mailboxes: ${destination.mailboxes.length ? destination.mailboxes.map((uuid) => html`<span class="chip">${view.mailboxAddress.get(uuid) ?? uuid}</span>`) : 'none'}</p>
  </div>
  <div class="page-actions">
    ${actionForm(page, `${base}/test`, 'Send test event')}
    <a class="button plain" href="${base}/edit">Edit</a>
  </div>
</div>
${view.notice ? html`<p class="notice" role="status">${NOTICES[view.notice]}</p>` : ''}
<div class="grid">
  ${switchSection(page, destination)}
  ${secretSection(page, view)}
</div>
<div${view.filterError ? '' : html` data-live="${base}/activity${historyQuery(view.filters, view.cursor)}"`}>
${historyCard(view)}
<section class="card" aria-labelledby="attempts-title">
  <h2 id="attempts-title">Attempts</h2>
  ${filterForm(page, view)}
  ${attemptList(page, view)}
</section>
</div>`,
  );
}

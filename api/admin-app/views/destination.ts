// One destination: its switch, its signing secret behind a reveal, and its delivery history.
import type { DailyStats, TypedAttemptRow } from '../../../domain/webhooks/deliveries.js';
import { deliveryId } from '../../../domain/webhooks/deliveries.js';
import type { Destination, SecretReveal } from '../../../domain/webhooks/destinations.js';
import { WEBHOOK_TEST, eventId } from '../../../domain/webhooks/events.js';
import { deliveryChart } from './chart.js';
import { NOTICES, statusBadge, type Notice } from './destinations.js';
import { html } from './html.js';
import { actionForm, formatTime, layout, type PageContext } from './layout.js';

export interface DestinationView {
  destination: Destination;
  mailboxAddress: Map<string, string>;
  stats: DailyStats[];
  attempts: TypedAttemptRow[];
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
 * own delivery of an event is "n of 5" towards disabling; a webhook.test is sent once, and a resend is a round of its
 * own, numbered from 1 and never counted towards disabling.
 */
function attemptLabel(attempt: Pick<TypedAttemptRow, 'event_type' | 'round' | 'attempt'>): string {
  if (attempt.event_type === WEBHOOK_TEST)
    return attempt.round > 0 ? `Test resend ${attempt.round}, sent once` : 'Test, sent once';
  if (attempt.round > 0) return `Resend ${attempt.round}, attempt ${attempt.attempt}`;
  return `${attempt.attempt} of 5`;
}

function attemptRows(page: PageContext, view: DestinationView) {
  return view.attempts.map((attempt) => {
    const result =
      attempt.outcome === 'pending'
        ? 'in flight'
        : attempt.status_code !== null
          ? `HTTP ${attempt.status_code}`
          : (attempt.error_class ?? 'error');
    return html`<tr class="attempt ${attempt.outcome}">
  <td>${formatTime(attempt.started_at)}</td>
  <td><code>${eventId(attempt.event_uuid)}</code><br><span class="muted small">${attempt.event_type}</span></td>
  <td>${attemptLabel(attempt)}</td>
  <td><span class="outcome ${attempt.outcome}">${result}</span></td>
  <td>${ms(attempt.response_time_ms)}</td>
  <td><details>
    <summary>Details</summary>
    <dl class="headers">
      <dt>POST</dt><dd>${view.destination.url}</dd>
      <dt>content-type</dt><dd>application/json</dd>
      <dt>user-agent</dt><dd>Folio-Webhooks/1</dd>
      <dt>x-service-event</dt><dd>${attempt.event_type}</dd>
      <dt>x-service-delivery-id</dt><dd>${deliveryId(attempt.uuid)}</dd>
      <dt>x-service-attempt</dt><dd>${attempt.attempt}</dd>
      <dt>x-service-signature</dt><dd>t=…,v1=… <span class="muted">(HMAC of the body; not kept)</span></dd>
      <dt>Response</dt><dd>${attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error_class ?? 'none yet')}${attempt.response_time_ms !== null ? ` in ${attempt.response_time_ms} ms` : ''}</dd>
    </dl>
    ${actionForm(page, `${page.base}/webhooks/${view.destination.uuid}/events/${eventId(attempt.event_uuid)}/resend`, 'Resend event', { confirm: 'Send this event to the destination again?' })}
  </details></td>
</tr>`;
  });
}

export function destinationPage(page: PageContext, view: DestinationView) {
  const { destination } = view;
  const base = `${page.base}/webhooks/${destination.uuid}`;
  return layout(
    page,
    destination.url,
    html`<p class="crumbs"><a href="${page.base}/webhooks">Webhooks</a> / Destination</p>
<div class="page-head">
  <div>
    <h1 class="url">${destination.url} ${statusBadge(destination)}</h1>
    ${destination.description ? html`<p>${destination.description}</p>` : ''}
    <p class="muted small">Mailboxes: ${destination.mailboxes.length ? destination.mailboxes.map((uuid) => html`<span class="chip">${view.mailboxAddress.get(uuid) ?? uuid}</span>`) : 'none'}</p>
  </div>
  <div>
    ${actionForm(page, `${base}/test`, 'Send test event')}
    <a class="button plain" href="${base}/edit">Edit</a>
  </div>
</div>
${view.notice ? html`<p class="notice" role="status">${NOTICES[view.notice]}</p>` : ''}
<div class="grid">
  ${switchSection(page, destination)}
  ${secretSection(page, view)}
</div>
<section class="card" aria-labelledby="history-title">
  <h2 id="history-title">Last 7 days</h2>
  <div class="history">
    ${deliveryChart(view.stats)}
    <div class="table-wrap"><table class="stats">
      <thead><tr><th scope="col">Day (UTC)</th><th scope="col">Attempts</th><th scope="col">Failed</th><th scope="col">p50</th><th scope="col">p95</th></tr></thead>
      <tbody>${view.stats.map((day) => html`<tr><td>${day.day}</td><td>${day.attempts}</td><td>${day.failures}</td><td>${ms(day.p50_ms)}</td><td>${ms(day.p95_ms)}</td></tr>`)}</tbody>
    </table></div>
  </div>
</section>
<section class="card" aria-labelledby="attempts-title">
  <h2 id="attempts-title">Recent attempts</h2>
  ${
    view.attempts.length
      ? html`<div class="table-wrap"><table class="attempts">
    <thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Result</th><th scope="col">Response time</th><th scope="col"><span class="visually-hidden">Details</span></th></tr></thead>
    <tbody>${attemptRows(page, view)}</tbody>
  </table></div>
  ${view.nextCursor ? html`<p><a class="button plain" href="${base}?before=${view.nextCursor}#attempts-title">Older attempts</a></p>` : ''}`
      : html`<p class="muted">No attempts yet. They appear here as mail arrives in a subscribed mailbox.</p>`
  }
</section>`,
  );
}

// The destinations list, and the add / edit form with the URL rules' refusal said next to the field.
import type { AttemptRow } from '../../../domain/webhooks/deliveries.js';
import { DESCRIPTION_MAX_LENGTH, type Destination } from '../../../domain/webhooks/destinations.js';
import { html } from './html.js';
import { formatTime, layout, type PageContext } from './layout.js';

export const NOTICES = {
  created: 'Destination added. Its signing secret is on this page, behind Reveal.',
  saved: 'Changes saved.',
  // spec/webhooks.md § States: events that occur while paused are not queued and are not replayed.
  paused:
    'Paused. Events that occur while paused are not queued and are not delivered, not even after you resume.',
  resumed: 'Resumed. Events from now on are delivered; those that occurred while paused are not replayed.',
  enabled: 'Turned on. Events that arrived while it was disabled are not delivered.',
  rotated: 'New signing secret issued. The previous one keeps signing for 24 hours.',
  test_sent:
    'Test event sent (webhook.test, once). Its attempt appears below; it never counts towards disabling.',
  test_refused: 'A test event goes only to an active destination: resume or enable it first.',
  resent: 'Event sent again as a new delivery; its attempts appear below, numbered from 1.',
  resend_refused:
    'That event cannot be sent again now: the destination is not active, a delivery of it is still in flight, or it was never sent here.',
} as const;
export type Notice = keyof typeof NOTICES;

export function statusBadge(destination: Destination) {
  return html`<span class="badge ${destination.status}">${destination.status}</span>`;
}

function outcomeText(attempt: AttemptRow | undefined) {
  if (!attempt) return html`<span class="muted">No deliveries yet</span>`;
  const what =
    attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error_class ?? 'error');
  return html`<span class="outcome ${attempt.outcome}">${attempt.outcome === 'success' ? 'Delivered' : 'Failed'} · ${what}</span> ${formatTime(attempt.finished_at ?? attempt.started_at)}`;
}

export function destinationsPage(
  page: PageContext,
  view: {
    destinations: Destination[];
    lastAttempts: Map<string, AttemptRow>;
    mailboxAddress: Map<string, string>;
    notice?: Notice;
  },
) {
  const rows = view.destinations.map(
    (destination) => html`<tr>
  <td><a class="url" href="${page.base}/webhooks/${destination.uuid}">${destination.url}</a>${destination.description ? html`<div class="muted small">${destination.description}</div>` : ''}</td>
  <td>${statusBadge(destination)}${destination.status === 'disabled' && destination.disabled_reason ? html`<div class="muted small">${destination.disabled_reason}</div>` : ''}</td>
  <td>${destination.mailboxes.length ? destination.mailboxes.map((uuid) => html`<span class="chip">${view.mailboxAddress.get(uuid) ?? uuid}</span>`) : html`<span class="muted">None</span>`}</td>
  <td>${outcomeText(view.lastAttempts.get(destination.uuid))}</td>
</tr>`,
  );
  return layout(
    page,
    'Webhooks',
    html`<div class="page-head">
  <div>
    <h1>Webhooks</h1>
    <p class="muted">Folio signs and sends <code>email.received</code> to these endpoints when mail arrives in a subscribed mailbox.</p>
  </div>
  <a class="button primary" href="${page.base}/webhooks/new">Add destination</a>
</div>
${view.notice ? html`<p class="notice" role="status">${NOTICES[view.notice]}</p>` : ''}
${
  view.destinations.length
    ? html`<div class="table-wrap"><table class="destinations">
  <thead><tr><th scope="col">Endpoint</th><th scope="col">Status</th><th scope="col">Mailboxes</th><th scope="col">Last delivery</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`
    : html`<section class="card empty">
  <h2>No destinations yet</h2>
  <p>Add an HTTPS endpoint to receive a signed request each time an e-mail arrives.</p>
  <a class="button primary" href="${page.base}/webhooks/new">Add destination</a>
</section>`
}`,
  );
}

export interface DestinationFormValues {
  url: string;
  description: string;
  mailboxes: string[];
}

export function destinationFormPage(
  page: PageContext,
  view: {
    mode: 'new' | 'edit';
    destinationUuid?: string;
    values: DestinationFormValues;
    errors: { url?: string; description?: string; mailboxes?: string; form?: string };
    mailboxes: { uuid: string; address: string }[];
  },
) {
  const action =
    view.mode === 'new' ? `${page.base}/webhooks` : `${page.base}/webhooks/${view.destinationUuid}/edit`;
  const title = view.mode === 'new' ? 'Add destination' : 'Edit destination';
  const field = (name: 'url' | 'description' | 'mailboxes') =>
    view.errors[name]
      ? html` aria-invalid="true" aria-describedby="${name}-error"`
      : html` aria-describedby="${name}-help"`;
  return layout(
    page,
    title,
    html`<p class="crumbs"><a href="${page.base}/webhooks">Webhooks</a> / ${view.mode === 'new' ? 'New' : 'Edit'}</p>
<section class="card form">
  <h1>${title}</h1>
  ${view.errors.form ? html`<p class="error" role="alert">${view.errors.form}</p>` : ''}
  <form method="post" action="${action}" class="stack" novalidate>
    <input type="hidden" name="_csrf" value="${page.session?.csrfToken ?? ''}">
    <div class="field">
      <label for="url">Endpoint URL</label>
      <input id="url" name="url" type="url" inputmode="url" required placeholder="https://example.com/webhooks/folio" value="${view.values.url}"${field('url')}>
      ${view.errors.url ? html`<p class="error" id="url-error" role="alert">${view.errors.url}</p>` : html`<p class="help" id="url-help">HTTPS on port 443, a public host. Checked now and again before every delivery.</p>`}
    </div>
    <div class="field">
      <label for="description">Description <span class="muted">(optional)</span></label>
      <input id="description" name="description" type="text" maxlength="${DESCRIPTION_MAX_LENGTH}" value="${view.values.description}"${field('description')}>
      ${view.errors.description ? html`<p class="error" id="description-error" role="alert">${view.errors.description}</p>` : html`<p class="help" id="description-help">What receives these events, for your team.</p>`}
    </div>
    <fieldset class="field mailboxes"${field('mailboxes')}>
      <legend>Mailboxes</legend>
      <p class="help" id="mailboxes-help">Mail arriving in these mailboxes is sent to this endpoint.</p>
      ${view.errors.mailboxes ? html`<p class="error" id="mailboxes-error" role="alert">${view.errors.mailboxes}</p>` : ''}
      ${view.mailboxes.length > 6 ? html`<label class="filter"><span class="visually-hidden">Filter mailboxes</span><input type="search" placeholder="Filter mailboxes" data-filter=".mailbox-option"></label>` : ''}
      <div class="options">
      ${
        view.mailboxes.length
          ? view.mailboxes.map(
              (mailbox) =>
                html`<label class="mailbox-option"><input type="checkbox" name="mailboxes" value="${mailbox.uuid}"${view.values.mailboxes.includes(mailbox.uuid) ? html` checked` : ''}> ${mailbox.address}</label>`,
            )
          : html`<p class="muted">This workspace has no mailboxes yet (an operator creates them with <code>folio mailbox create</code>).</p>`
      }
      </div>
    </fieldset>
    <div class="actions">
      <button type="submit" class="button primary">${view.mode === 'new' ? 'Add destination' : 'Save changes'}</button>
      <a class="button plain" href="${view.mode === 'new' ? `${page.base}/webhooks` : `${page.base}/webhooks/${view.destinationUuid}`}">Cancel</a>
    </div>
  </form>
</section>`,
  );
}

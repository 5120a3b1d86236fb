// Progressive touches for the admin app: copy buttons, confirmation of risky actions, and the mailbox filter.
// Every page works without this script.
document.addEventListener('click', async (event) => {
  const button = event.target.closest('[data-copy]');
  if (!button) return;
  const source = document.querySelector(button.dataset.copy);
  if (!source) return;
  try {
    await navigator.clipboard.writeText(source.textContent.trim());
    button.textContent = 'Copied';
  } catch {
    // Clipboard refused (an insecure origin, a denied permission): select the text so the admin can copy it.
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    button.textContent = 'Press Ctrl+C';
  }
  setTimeout(() => {
    button.textContent = 'Copy';
  }, 2000);
});

document.addEventListener('submit', (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});

document.addEventListener('input', (event) => {
  const selector = event.target.dataset.filter;
  if (!selector) return;
  const wanted = event.target.value.trim().toLowerCase();
  for (const option of document.querySelectorAll(selector)) {
    option.hidden = wanted !== '' && !option.textContent.toLowerCase().includes(wanted);
  }
});

// A destination's history refreshes itself while the tab is visible (docs/admin-app.md § Live history): every few
// seconds the page fetches its live parts again (<destination>/activity, the same filters and page) and swaps each
// [data-live-part] for the new one, without reloading. Attempts whose details are open stay open. A hidden tab
// fetches nothing; it refreshes at once when shown again. Without this script the page shows the same on reload.
const live = document.querySelector('[data-live]');
if (live) {
  const EVERY_MS = 5000;
  const FOCUSABLE = 'summary, button, a, input';
  let timer;
  let last;
  let busy = false;
  const schedule = () => {
    window.clearTimeout(timer);
    timer = document.visibilityState === 'visible' ? setTimeout(refresh, EVERY_MS) : undefined;
    live.dataset.liveState = timer === undefined ? 'paused' : 'polling';
  };
  const swap = (text) => {
    const fresh = new window.DOMParser().parseFromString(text, 'text/html');
    for (const part of fresh.querySelectorAll('[data-live-part]')) {
      const current = document.getElementById(part.id);
      if (!current) continue;
      // Focus inside an attempt's details moves to the same control of its new copy; focus anywhere else in the
      // part (a pager link) would be lost, so that part waits for a refresh without it.
      let refocus;
      if (current.contains(document.activeElement)) {
        const holder = document.activeElement.closest('[data-keep-open]');
        if (!holder) continue;
        const controls = [...holder.querySelectorAll(FOCUSABLE)];
        refocus = { key: holder.dataset.keepOpen, index: controls.indexOf(document.activeElement) };
      }
      const open = new Set(
        [...current.querySelectorAll('details[open]')].map((details) => details.dataset.keepOpen),
      );
      for (const details of part.querySelectorAll('details[data-keep-open]'))
        if (open.has(details.dataset.keepOpen)) details.open = true;
      const replacement = document.importNode(part, true);
      current.replaceWith(replacement);
      if (refocus) {
        const holder = [...replacement.querySelectorAll('[data-keep-open]')].find(
          (candidate) => candidate.dataset.keepOpen === refocus.key,
        );
        holder?.querySelectorAll(FOCUSABLE)[refocus.index]?.focus();
      }
    }
  };
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const response = await window.fetch(live.dataset.live, { credentials: 'same-origin' });
      // Signed out (sent to the sign-in page) or refused: show the page as a reload would, and stop.
      if (response.redirected || !response.ok) {
        window.clearTimeout(timer);
        live.dataset.liveState = 'stopped';
        if (response.redirected) window.location.reload();
        return;
      }
      const text = await response.text();
      if (text !== last) swap(text);
      last = text;
    } catch {
      // Offline for a moment: try again at the next tick.
    } finally {
      busy = false;
    }
    if (live.dataset.liveState !== 'stopped') schedule();
  }
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh();
    else schedule();
  });
  schedule();
}

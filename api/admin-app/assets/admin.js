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

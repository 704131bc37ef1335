// @ts-check
/**
 * The favourite button without a page load (docs/site.md): the form posts to /favorites/{id} and comes back to
 * the page (303); here a signed-in visitor's post is sent in the background and the button shows the new state.
 * An anonymous visitor's form (no CSRF field) is left to go to the sign-in page.
 */
for (const form of document.querySelectorAll('form[data-favorite]')) {
  if (form instanceof HTMLFormElement && form.querySelector('input[name="csrf"]')) enhance(form);
}

/** @param {HTMLFormElement} form */
function enhance(form) {
  const wanted = /** @type {HTMLInputElement | null} */ (form.elements.namedItem('favorite'));
  const button = form.querySelector('button');
  const label = form.querySelector('.favorite__label');
  const icon = form.querySelector('.favorite__icon');
  if (!wanted || !button || !label || !icon) return;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      const body = new URLSearchParams(/** @type {any} */ (new FormData(form)));
      const answer = await fetch(form.action, { method: 'POST', body, redirect: 'manual', credentials: 'same-origin' });
      // The 303 back to the page is what success looks like (an opaque redirect to fetch).
      if (answer.type !== 'opaqueredirect' && !answer.ok) {
        form.submit();
        return;
      }
      const isFavorite = wanted.value === 'true';
      wanted.value = isFavorite ? 'false' : 'true';
      button.setAttribute('aria-pressed', String(isFavorite));
      label.textContent = (isFavorite ? button.dataset.labelRemove : button.dataset.labelAdd) ?? '';
      icon.textContent = isFavorite ? '♥' : '♡';
    } catch {
      form.submit();
    } finally {
      button.disabled = false;
    }
  });
}

// @ts-check
/**
 * The listing's lightbox (docs/site.md): the gallery's pictures are links to their large size, which a visitor
 * without JavaScript follows; here a click opens them in a modal <dialog> instead, with previous/next buttons,
 * arrow keys (mirrored on right-to-left pages) and Escape to close. The words come from the gallery's data-label-*.
 */
const root = document.querySelector('[data-gallery]');
if (root instanceof HTMLElement && typeof HTMLDialogElement === 'function') setUp(root);

/** @param {HTMLElement} root */
function setUp(root) {
  const links = /** @type {HTMLAnchorElement[]} */ ([...root.querySelectorAll('a.gallery__link')]);
  if (links.length === 0) return;
  const labels = root.dataset;

  const dialog = document.createElement('dialog');
  dialog.className = 'lightbox';
  dialog.setAttribute('aria-label', labels.labelDialog ?? '');
  const figure = document.createElement('figure');
  figure.className = 'lightbox__figure';
  const image = document.createElement('img');
  image.className = 'lightbox__image';
  image.decoding = 'async';
  const counter = document.createElement('figcaption');
  counter.className = 'lightbox__counter';
  counter.setAttribute('aria-live', 'polite');
  figure.append(image, counter);

  /** @param {string} className @param {string} label @param {string} text */
  const button = (className, label, text) => {
    const element = document.createElement('button');
    element.type = 'button';
    element.className = `lightbox__button ${className}`;
    element.setAttribute('aria-label', label);
    element.textContent = text;
    return element;
  };
  const close = button('lightbox__close', labels.labelClose ?? 'Close', '×');
  const previous = button('lightbox__previous', labels.labelPrevious ?? 'Previous', '‹');
  const next = button('lightbox__next', labels.labelNext ?? 'Next', '›');
  if (links.length === 1) {
    previous.hidden = true;
    next.hidden = true;
  }
  dialog.append(close, figure, previous, next);
  document.body.append(dialog);

  let current = 0;
  /** @param {number} index */
  const show = (index) => {
    current = (index + links.length) % links.length;
    const link = /** @type {HTMLAnchorElement} */ (links[current]);
    image.src = link.href;
    image.alt = link.dataset.alt ?? '';
    counter.textContent = `${current + 1} / ${links.length}`;
  };

  links.forEach((link, index) =>
    link.addEventListener('click', (event) => {
      // A click meant for a new tab or window keeps doing that.
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      show(index);
      dialog.showModal();
      close.focus();
    }),
  );
  close.addEventListener('click', () => dialog.close());
  previous.addEventListener('click', () => show(current - 1));
  next.addEventListener('click', () => show(current + 1));
  // A click on the backdrop (the dialog itself, outside its content) closes it.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener('keydown', (event) => {
    const forward = document.documentElement.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = forward === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
    if (event.key === forward) show(current + 1);
    else if (event.key === backward) show(current - 1);
    else return;
    event.preventDefault();
  });
  dialog.addEventListener('close', () => links[current]?.focus());
}

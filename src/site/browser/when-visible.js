// @ts-check
/**
 * Runs `start` once, when `element` first comes near the viewport: islands that cost bytes (the map and its
 * library) load only for visitors who scroll to them. Without IntersectionObserver it runs at once.
 * @param {Element} element
 * @param {() => void} start
 * @param {string} [margin] how far ahead of the viewport to start, as a CSS margin
 */
export function whenVisible(element, start, margin = '200px') {
  if (!('IntersectionObserver' in window)) {
    start();
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      start();
    },
    { rootMargin: margin },
  );
  observer.observe(element);
}

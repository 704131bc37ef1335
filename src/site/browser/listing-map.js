// @ts-check
/**
 * The listing's map (docs/site.md): the page shows a link to the place on OpenStreetMap; once the block comes into
 * view this fetches Leaflet (its script and stylesheet, served beside this file) and draws the tiles of the
 * site's tile server with a marker. Nothing of Leaflet is loaded for a visitor who never scrolls there.
 */
import { whenVisible } from './when-visible.js';

const element = document.querySelector('[data-listing-map]');
if (element instanceof HTMLElement) whenVisible(element, () => void start(element));

/** @param {HTMLElement} element */
async function start(element) {
  const { lat, lng, tiles, attribution, label } = element.dataset;
  const latitude = Number(lat);
  const longitude = Number(lng);
  if (!tiles || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return;
  const stylesheet = document.createElement('link');
  stylesheet.rel = 'stylesheet';
  stylesheet.href = new URL('./leaflet.css', import.meta.url).href;
  document.head.append(stylesheet);
  // Leaflet's bundle is a UMD script: imported as a module it sets the global `L`.
  await import(new URL('./leaflet.js', import.meta.url).href);
  const L = /** @type {any} */ (window).L;
  if (!L) return;
  const canvas = document.createElement('div');
  canvas.className = 'listing-map__canvas';
  canvas.setAttribute('role', 'region');
  canvas.setAttribute('aria-label', label ?? '');
  element.prepend(canvas);
  element.classList.add('listing-map--live');
  const map = L.map(canvas, { scrollWheelZoom: false }).setView([latitude, longitude], 15);
  L.tileLayer(tiles, { attribution: attribution ?? '', maxZoom: 19 }).addTo(map);
  const pin = L.divIcon({ className: 'listing-map__pin', iconSize: [28, 28], iconAnchor: [14, 28] });
  L.marker([latitude, longitude], { icon: pin, keyboard: false, title: label ?? '' }).addTo(map);
}

// @ts-check
/**
 * The results page's map (docs/site.md): once the map's box comes into view, loads Leaflet and draws the
 * clusters of the page's search for the part of the world in view, from GET /properties/search/map (the same
 * filters, the map's box and zoom). A cluster of one opens a card of its listing; a larger one zooms in.
 * "Search this area" reloads the results with the map's box (ne_lat, ne_lng, sw_lat, sw_lng): the page stays a
 * plain GET page, and the list filters by the map. Without script the box keeps its note.
 */
import { whenVisible } from './when-visible.js';

/** @typedef {{ latitude: number, longitude: number, count: number, property_id?: number }} Cluster */

const root = document.querySelector('.results-map');
if (root instanceof HTMLElement) whenVisible(root, () => start(root));

/** @param {HTMLElement} root */
function start(root) {
  const data = root.dataset;
  const note = root.querySelector('.results-map__note');
  if (note) note.textContent = data.textLoading ?? '';
  loadLeaflet(data.leaflet ?? '', data.leafletCss ?? '')
    .then((L) => {
      note?.remove();
      draw(L, root, data);
    })
    .catch(() => {
      if (note) note.textContent = data.textFailed ?? '';
    });
}

/**
 * Leaflet's stylesheet and script (a classic script that sets `window.L`), each added once.
 * @param {string} script
 * @param {string} stylesheet
 * @returns {Promise<any>}
 */
function loadLeaflet(script, stylesheet) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = stylesheet;
  document.head.append(link);
  return new Promise((resolve, reject) => {
    const element = document.createElement('script');
    element.src = script;
    element.onload = () => resolve(/** @type {any} */ (window).L);
    element.onerror = reject;
    document.head.append(element);
  });
}

/** @param {number} lng */
const wrapLng = (lng) => ((((lng + 180) % 360) + 360) % 360) - 180;
/** @param {number} value */
const round = (value) => String(Math.round(value * 1e6) / 1e6);

/**
 * @param {any} L
 * @param {HTMLElement} root
 * @param {DOMStringMap} data
 */
function draw(L, root, data) {
  const canvas = document.createElement('div');
  canvas.className = 'results-map__canvas';
  root.append(canvas);
  const map = L.map(canvas, { scrollWheelZoom: false, worldCopyJump: true });
  L.tileLayer(data.tiles, { attribution: data.attribution, maxZoom: 19 }).addTo(map);
  const bounds = (data.bounds ?? '').split(',').map(Number);
  if (bounds.length === 4 && bounds.every(Number.isFinite)) {
    const [south, west, north, east] = /** @type {[number, number, number, number]} */ (bounds);
    // A box across the antimeridian has its east edge west of its west edge.
    map.fitBounds(
      [
        [south, west],
        [north, east < west ? east + 360 : east],
      ],
      { padding: [24, 24], maxZoom: 15 },
    );
  } else map.setView([20, 0], 2);

  const numbers = new Intl.NumberFormat(data.locale);
  const layer = L.layerGroup().addTo(map);
  /** @type {AbortController | undefined} */
  let pending;

  /** The map's box as the API takes it: latitudes within the poles, longitudes wrapped, the whole world at most. */
  const box = () => {
    const view = map.getBounds();
    const wide = view.getEast() - view.getWest() >= 360;
    return {
      ne_lat: round(Math.min(90, view.getNorth())),
      ne_lng: round(wide ? 180 : wrapLng(view.getEast())),
      sw_lat: round(Math.max(-90, view.getSouth())),
      sw_lng: round(wide ? -180 : wrapLng(view.getWest())),
    };
  };

  const showClusters = () => {
    pending?.abort();
    pending = new AbortController();
    const params = new URLSearchParams(data.filters ?? '');
    for (const [name, value] of Object.entries(box())) params.set(name, value);
    params.set('zoom', String(Math.max(0, Math.min(22, Math.round(map.getZoom())))));
    fetch(`${data.clusters}?${params}`, { signal: pending.signal, headers: { accept: 'application/json' } })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((body) => {
        layer.clearLayers();
        const centre = map.getCenter().lng;
        for (const cluster of /** @type {Cluster[]} */ (body.data.clusters)) layer.addLayer(marker(cluster, centre));
      })
      .catch(() => {});
  };

  /**
   * A cluster's marker, on the copy of the world nearest the map's centre.
   * @param {Cluster} cluster
   * @param {number} centre
   */
  const marker = (cluster, centre) => {
    let lng = cluster.longitude;
    while (lng - centre > 180) lng -= 360;
    while (centre - lng > 180) lng += 360;
    const icon = document.createElement('span');
    icon.textContent = numbers.format(cluster.count);
    const one = cluster.count === 1 && cluster.property_id !== undefined;
    const title = one ? '' : (data.textCluster ?? '').replace('{count}', numbers.format(cluster.count));
    const size = cluster.count === 1 ? 28 : cluster.count < 100 ? 36 : 44;
    const point = L.marker([cluster.latitude, lng], {
      icon: L.divIcon({ html: icon, className: one ? 'results-map__pin' : 'results-map__cluster', iconSize: [size, size] }),
      keyboard: true,
      title,
    });
    if (one) {
      point.bindPopup(() => listingCard(/** @type {number} */ (cluster.property_id)), { minWidth: 200 });
    } else point.on('click', () => map.setView([cluster.latitude, lng], Math.min(map.getZoom() + 2, 18)));
    return point;
  };

  /**
   * The popup of a cluster of one: its listing's price and title, linking to its page in this language.
   * @param {number} id
   */
  const listingCard = (id) => {
    const card = document.createElement('div');
    card.className = 'results-map__card';
    card.textContent = data.textLoading ?? '';
    fetch(`${data.listings}?ids=${id}&per_page=1`, { headers: { accept: 'application/json' } })
      .then((response) => response.json())
      .then((body) => {
        const listing = body.data.properties[0];
        if (!listing) return;
        const url = new URL(listing.url);
        card.textContent = '';
        const price = document.createElement('p');
        price.className = 'results-map__price';
        price.textContent = listing.formatted_price ?? '';
        const link = document.createElement('a');
        link.textContent = listing.title;
        if (url.protocol === 'https:' || url.protocol === 'http:') link.href = `${data.prefix ?? ''}${url.pathname}`;
        card.append(price, link);
      })
      .catch(() => {
        card.textContent = data.textFailed ?? '';
      });
    return card;
  };

  const searchArea = document.createElement('button');
  searchArea.type = 'button';
  searchArea.className = 'button results-map__search';
  searchArea.textContent = data.textSearchArea ?? '';
  searchArea.hidden = true;
  searchArea.addEventListener('click', () => {
    const url = new URL(window.location.href);
    for (const [name, value] of Object.entries(box())) url.searchParams.set(name, value);
    url.searchParams.delete('page');
    url.searchParams.delete('paged');
    url.searchParams.delete('saved');
    window.location.assign(url.toString());
  });
  root.append(searchArea);

  /** @type {number | undefined} */
  let timer;
  // Listened to after the start view is set: every move is the visitor's.
  map.on('moveend', () => {
    searchArea.hidden = false;
    window.clearTimeout(timer);
    timer = window.setTimeout(showClusters, 250);
  });
  showClusters();
}

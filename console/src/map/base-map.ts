import 'leaflet/dist/leaflet.css';
import './map.css';
import L from 'leaflet';
import { settings } from '../settings';

/**
 * A Leaflet map in `container` with the configured tiles (CONSOLE_TILE_URL) and their credit line. Import this
 * module only from lazily loaded components (`React.lazy`): Leaflet then stays out of the console's first load.
 * Markers are circle markers or `divIcon`s: Leaflet's default marker images are not part of the build.
 */
export function createBaseMap(container: HTMLElement, view: { center: [number, number]; zoom: number }): L.Map {
  const map = L.map(container, { center: view.center, zoom: view.zoom, worldCopyJump: true });
  const { tile_url, tile_attribution } = settings();
  L.tileLayer(tile_url, { attribution: escapeText(tile_attribution), maxZoom: 19 }).addTo(map);
  return map;
}

/**
 * Takes a map down when its component unmounts. Leaflet 1.9 finishes a zoom animation from a timer that fails
 * with a TypeError once the map is removed (Leaflet issue 9575), and a page left mid-zoom (Explore fitting its
 * first answer, a click on a cluster) would then raise an error in the next page: such a map is removed when its
 * animation ends, a quarter of a second later, the moment Leaflet's own timer fires.
 */
export function removeMap(map: L.Map): void {
  map.stop();
  if (map.getPane('mapPane')?.classList.contains('leaflet-zoom-anim')) map.once('moveend', () => map.remove());
  else map.remove();
}

/** Leaflet writes the attribution as HTML: the setting is shown as text. */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export { L };

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

/** Leaflet writes the attribution as HTML: the setting is shown as text. */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export { L };

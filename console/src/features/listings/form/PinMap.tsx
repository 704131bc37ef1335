import { useEffect, useRef } from 'react';
import { createBaseMap, L, removeMap } from '../../../map/base-map';
import '../listings.css';

export interface PinMapProps {
  latitude: number | null;
  longitude: number | null;
  /** A click on the map or the end of a drag of the pin: the new position, rounded to 6 decimals (~0.1 m). */
  onPick: (latitude: number, longitude: number) => void;
  label: string;
  /** The place chosen in the form (its centre, a zoom that shows it whole): the map goes there when it changes. */
  focus: { latitude: number; longitude: number; zoom: number; key: string } | null;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;
/** Longitudes of a map that wrapped around the world, brought back into −180..180. */
const wrapLongitude = (value: number) => ((((value + 180) % 360) + 360) % 360) - 180;

const WORLD: { center: [number, number]; zoom: number } = { center: [20, 0], zoom: 2 };
const PINNED_ZOOM = 14;
/** A pin typed in while the map shows more than a region is brought into view at the pin's zoom. */
const FAR_ZOOM = 10;

/**
 * The map of the listing form (loaded lazily with Leaflet): a click places the pin, the pin can be dragged,
 * and the pin follows the latitude/longitude inputs. It works without tiles (the clicks are the map's own),
 * so a tile server that cannot be reached costs the picture, not the pin.
 */
export default function PinMap({ latitude, longitude, onPick, label, focus }: PinMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const marker = useRef<L.Marker | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    if (!container.current) return;
    const hasPin = latitude !== null && longitude !== null;
    const instance = createBaseMap(container.current, hasPin ? { center: [latitude, longitude], zoom: PINNED_ZOOM } : WORLD);
    // Where the map looks, on its element: what a browser test (or an assistive tool) can read without Leaflet.
    const describe = () => {
      const centre = instance.getCenter();
      container.current?.setAttribute('data-view', `${instance.getZoom()}/${centre.lat.toFixed(4)}/${centre.lng.toFixed(4)}`);
    };
    instance.on('moveend', describe);
    describe();
    instance.on('click', (event: L.LeafletMouseEvent) => {
      pick.current(round(event.latlng.lat), round(wrapLongitude(event.latlng.lng)));
    });
    map.current = instance;
    return () => {
      removeMap(instance);
      map.current = null;
      marker.current = null;
    };
    // The map is made once (later positions move the pin, the effect below).
  }, []);

  useEffect(() => {
    const instance = map.current;
    if (!instance) return;
    if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
      marker.current?.remove();
      marker.current = null;
      return;
    }
    const position = L.latLng(latitude, longitude);
    if (!marker.current) {
      const pin = L.marker(position, {
        draggable: true,
        keyboard: false,
        icon: L.divIcon({ className: 'listings-pin', iconSize: [22, 22], iconAnchor: [11, 22], html: '' }),
      });
      pin.on('dragend', () => {
        const moved = pin.getLatLng();
        pick.current(round(moved.lat), round(wrapLongitude(moved.lng)));
      });
      pin.addTo(instance);
      marker.current = pin;
    } else if (!marker.current.getLatLng().equals(position)) {
      marker.current.setLatLng(position);
    }
    if (instance.getZoom() < FAR_ZOOM) instance.setView(position, PINNED_ZOOM);
    else if (!instance.getBounds().contains(position)) instance.panTo(position);
  }, [latitude, longitude]);

  // A place chosen goes on screen (only a new place moves the map: the pin's moves are the effect above's).
  const focusKey = focus?.key ?? null;
  useEffect(() => {
    if (map.current && focus) map.current.setView([focus.latitude, focus.longitude], focus.zoom);
  }, [focusKey]);

  return <div ref={container} className="listings-map" role="application" aria-label={label} data-testid="listing-map" />;
}

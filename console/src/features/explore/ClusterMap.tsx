import { useEffect, useRef } from 'react';
import { createBaseMap, L, removeMap } from '../../map/base-map';
import { type BoundingBox, boxFromBounds, type MapView, normalizeView, placeLongitude } from './explore-state';
import type { Cluster } from './types';

/** How long the map must rest before the clusters of its new view are asked for. */
const SETTLE_MS = 200;
/** The view without a shared one: the whole world, until the first answer shows where the listings are. */
const WORLD: MapView = { lat: 25, lng: 0, zoom: 1 };

export interface ViewChange {
  box: BoundingBox;
  zoom: number;
  view: MapView;
}

export interface ClusterMapProps {
  /** The view from the URL; null: start on the world and fit the first answer's clusters. */
  initialView: MapView | null;
  clusters: readonly Cluster[] | undefined;
  /**
   * The listing to show out (hovered or focused in the list): its own pin when it has one in view, else a
   * marker of its own at its coordinates (it is then inside a cluster).
   */
  highlighted: { id: number; latitude: number | null; longitude: number | null } | null;
  /** The titles of listings the page knows (its result list), for the markers' accessible names. */
  titles: ReadonlyMap<number, string>;
  label: string;
  clusterLabel: (count: number) => string;
  markerLabel: (id: number, title: string | undefined) => string;
  countText: (count: number) => string;
  onView: (change: ViewChange) => void;
  onOpen: (id: number) => void;
}

/**
 * The clusters of GET /properties/search/map on a Leaflet map: a numbered disc per cluster (activating it zooms
 * in on it), a pin per single listing (activating it opens the listing). Markers are keyboard-focusable
 * buttons (Leaflet's), named for screen readers. The view is reported, debounced, after each move.
 */
export default function ClusterMap(props: ClusterMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const pins = useRef(new Map<number, L.Marker>());
  const fitPending = useRef(props.initialView === null);
  // The latest callbacks and labels, read by Leaflet's handlers without re-creating the map.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    if (!container.current) return;
    const start = props.initialView ?? WORLD;
    const map = createBaseMap(container.current, { center: [start.lat, start.lng], zoom: start.zoom });
    mapRef.current = map;
    layer.current = L.layerGroup().addTo(map);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const report = () => {
      const bounds = map.getBounds();
      const center = map.getCenter();
      latest.current.onView({
        box: boxFromBounds({ south: bounds.getSouth(), west: bounds.getWest(), north: bounds.getNorth(), east: bounds.getEast() }),
        zoom: map.getZoom(),
        view: normalizeView({ lat: center.lat, lng: center.lng, zoom: map.getZoom() }),
      });
    };
    const settle = () => {
      clearTimeout(timer);
      timer = setTimeout(report, SETTLE_MS);
    };
    map.on('moveend', settle);
    map.on('resize', settle);
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(container.current);
    report();
    return () => {
      // A map removed mid-zoom still ends its move (removeMap): it must not report a view to a page that is gone.
      map.off('moveend', settle);
      map.off('resize', settle);
      clearTimeout(timer);
      resize.disconnect();
      removeMap(map);
      mapRef.current = null;
      layer.current = null;
      pins.current.clear();
    };
    // The map is made once; later views come from the user moving it.
  }, []);

  // Draw the clusters of the latest answer.
  useEffect(() => {
    const map = mapRef.current;
    const group = layer.current;
    if (!map || !group || !props.clusters) return;
    group.clearLayers();
    pins.current.clear();
    const centerLng = map.getCenter().lng;
    for (const cluster of props.clusters) {
      const at = L.latLng(cluster.latitude, placeLongitude(cluster.longitude, centerLng));
      if (cluster.property_id !== undefined && cluster.count === 1) {
        const id = cluster.property_id;
        const marker = L.marker(at, { icon: pinIcon(), keyboard: true, riseOnHover: true });
        marker.on('click', () => latest.current.onOpen(id));
        marker.addTo(group);
        name(marker, latest.current.markerLabel(id, latest.current.titles.get(id)));
        pins.current.set(id, marker);
      } else {
        const marker = L.marker(at, { icon: clusterIcon(cluster.count, latest.current.countText(cluster.count)), keyboard: true });
        marker.on('click', () => map.setView(at, Math.min(map.getZoom() + 2, 18)));
        marker.addTo(group);
        name(marker, latest.current.clusterLabel(cluster.count));
      }
    }
    if (fitPending.current && props.clusters.length > 0) {
      fitPending.current = false;
      const bounds = L.latLngBounds(props.clusters.map((cluster) => [cluster.latitude, cluster.longitude] as [number, number]));
      map.fitBounds(bounds, { padding: [30, 30], maxZoom: 12 });
    }
  }, [props.clusters]);

  // Marker names follow the titles the list learns.
  useEffect(() => {
    for (const [id, marker] of pins.current) name(marker, latest.current.markerLabel(id, props.titles.get(id)));
  }, [props.titles]);

  useEffect(() => {
    const map = mapRef.current;
    const target = props.highlighted;
    for (const [id, marker] of pins.current) {
      const on = id === target?.id;
      marker.getElement()?.classList.toggle('explore-pin-active', on);
      marker.setZIndexOffset(on ? 1000 : 0);
    }
    if (!map || !target || pins.current.has(target.id) || target.latitude === null || target.longitude === null) return;
    const at = L.latLng(target.latitude, placeLongitude(target.longitude, map.getCenter().lng));
    const spot = L.marker(at, { icon: pinIcon('explore-pin explore-pin-active'), interactive: false, keyboard: false, zIndexOffset: 1000 });
    spot.addTo(map);
    return () => {
      spot.remove();
    };
  }, [props.highlighted, props.clusters]);

  return <div ref={container} className="explore-map" role="region" aria-label={props.label} />;
}

function name(marker: L.Marker, label: string): void {
  const element = marker.getElement();
  element?.setAttribute('aria-label', label);
  element?.setAttribute('title', label);
}

/** A disc with the count; its size grows with the count's order of magnitude. */
function clusterIcon(count: number, text: string): L.DivIcon {
  const size = Math.round(30 + Math.min(4, Math.log10(Math.max(count, 1))) * 8);
  const label = document.createElement('span');
  label.textContent = text;
  return L.divIcon({ className: 'explore-cluster', html: label, iconSize: [size, size] });
}

function pinIcon(className = 'explore-pin'): L.DivIcon {
  const dot = document.createElement('span');
  dot.className = 'explore-pin-dot';
  return L.divIcon({ className, html: dot, iconSize: [22, 22] });
}

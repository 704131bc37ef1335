import { useEffect, useRef } from 'react';
import { createBaseMap, L, removeMap } from './base-map';

/** A small map centred on one listing, with its pin: Explore's listing page and the moderator's review. */
export default function ListingPinMap({ latitude, longitude, label }: { latitude: number; longitude: number; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return;
    const map = createBaseMap(container.current, { center: [latitude, longitude], zoom: 14 });
    const dot = document.createElement('span');
    dot.className = 'listing-pin-dot';
    L.marker([latitude, longitude], {
      icon: L.divIcon({ className: 'listing-pin', html: dot, iconSize: [22, 22] }),
      keyboard: false,
      interactive: false,
    }).addTo(map);
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(container.current);
    return () => {
      resize.disconnect();
      removeMap(map);
    };
  }, [latitude, longitude]);
  return <div ref={container} className="listing-pin-map" role="region" aria-label={label} />;
}

/** Demo taxonomy: realistic terms for a fresh install (docs/api.md 11, SEED_DEMO). */

export interface DemoTerm {
  name: string;
  color?: string;
  description?: string;
  children?: DemoTerm[];
}

export const PROPERTY_TYPES: DemoTerm[] = [
  {
    name: 'Residential',
    description: 'Homes for living in.',
    children: [
      { name: 'Apartment' },
      { name: 'Villa' },
      { name: 'Townhouse' },
      { name: 'Penthouse' },
      { name: 'Studio' },
      { name: 'Duplex' },
      { name: 'Single Family Home' },
      { name: 'Condo' },
    ],
  },
  {
    name: 'Commercial',
    description: 'Space for business.',
    children: [{ name: 'Office' }, { name: 'Shop' }, { name: 'Warehouse' }, { name: 'Restaurant' }, { name: 'Industrial Building' }],
  },
  { name: 'Land', children: [{ name: 'Residential Land' }, { name: 'Agricultural Land' }] },
];

export const PROPERTY_STATUSES: DemoTerm[] = [
  { name: 'For Sale', color: '#2e7d32' },
  { name: 'For Rent', color: '#1565c0' },
  { name: 'New Construction', color: '#6d4c41' },
];

export const PROPERTY_LABELS: DemoTerm[] = [
  { name: 'Hot Offer', color: '#e53935' },
  { name: 'Open House', color: '#fb8c00' },
  { name: 'New Listing', color: '#43a047' },
  { name: 'Price Reduced', color: '#8e24aa' },
  { name: 'Exclusive', color: '#3949ab' },
];

export const PROPERTY_FEATURES: string[] = [
  'Air Conditioning',
  'Balcony',
  'Barbecue Area',
  'Central Heating',
  'Concierge',
  'Dishwasher',
  'Doorman',
  'Elevator',
  'Fireplace',
  'Garage',
  'Garden',
  'Gym',
  'Hardwood Floors',
  'Home Theater',
  'Laundry Room',
  'Lawn',
  'Microwave',
  'Parking',
  'Pet Friendly',
  'Playground',
  'Refrigerator',
  'Sauna',
  'Sea View',
  'Security System',
  'Solar Panels',
  'Storage Room',
  'Swimming Pool',
  'Tennis Court',
  'Terrace',
  'Walk-in Closet',
  'Wheelchair Access',
  'WiFi',
  'Window Coverings',
];

/** country → state → city → areas */
export const LOCATIONS: Record<string, Record<string, Record<string, string[]>>> = {
  'United States': {
    Florida: { Miami: ['Brickell', 'Wynwood', 'Coconut Grove'], Orlando: ['Lake Nona', 'Winter Park'] },
    'New York': { 'New York City': ['Manhattan', 'Brooklyn', 'Queens'] },
    California: { 'Los Angeles': ['Hollywood', 'Venice', 'Santa Monica'], 'San Francisco': ['Mission District', 'SoMa'] },
  },
  Spain: {
    Madrid: { Madrid: ['Salamanca', 'Chamberí', 'Malasaña'] },
    Catalonia: { Barcelona: ['Eixample', 'Gràcia', 'El Born'] },
  },
  France: {
    'Île-de-France': { Paris: ['Le Marais', 'Montmartre', 'Saint-Germain-des-Prés'] },
    "Provence-Alpes-Côte d'Azur": { Nice: ['Vieux Nice', 'Cimiez'] },
  },
  'United Arab Emirates': {
    Dubai: { Dubai: ['Downtown Dubai', 'Dubai Marina', 'Palm Jumeirah'] },
    'Abu Dhabi': { 'Abu Dhabi': ['Al Reem Island', 'Saadiyat Island'] },
  },
};

export const AGENT_CATEGORIES: string[] = ['Residential Sales', 'Commercial', 'Rentals', 'Luxury Homes', 'Property Management'];
export const AGENT_CITIES: string[] = ['Miami', 'New York City', 'Los Angeles', 'Madrid', 'Barcelona', 'Paris', 'Dubai'];

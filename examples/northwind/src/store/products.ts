// The store's catalogue: plain data, the same for every shopper.

/** One product of the store. Prices are in cents, so totals never drift. */
export interface Product {
  id: string;
  name: string;
  category: CategoryId;
  priceCents: number;
  origin: string;
  description: string;
}

export type CategoryId = 'tea' | 'coffee' | 'cocoa' | 'teaware';

export const CATEGORIES: readonly { id: CategoryId; name: string }[] = [
  { id: 'tea', name: 'Tea' },
  { id: 'coffee', name: 'Coffee' },
  { id: 'cocoa', name: 'Cocoa' },
  { id: 'teaware', name: 'Teaware' },
];

export const PRODUCTS: readonly Product[] = [
  {
    id: 'sencha',
    name: 'Sencha',
    category: 'tea',
    priceCents: 790,
    origin: 'Shizuoka, Japan',
    description: 'A steamed green tea with a fresh, grassy cup. Brew at 70 °C for one minute.',
  },
  {
    id: 'assam',
    name: 'Assam Breakfast',
    category: 'tea',
    priceCents: 450,
    origin: 'Assam, India',
    description: 'A malty black tea that takes milk well. Brew at 95 °C for four minutes.',
  },
  {
    id: 'oolong',
    name: 'Milk Oolong',
    category: 'tea',
    priceCents: 1150,
    origin: 'Nantou, Taiwan',
    description: 'A creamy, lightly oxidised oolong. Several infusions from one spoonful.',
  },
  {
    id: 'earl-grey',
    name: 'Earl Grey',
    category: 'tea',
    priceCents: 620,
    origin: 'Blended in London',
    description: 'Black tea scented with bergamot oil. Brew at 95 °C for three minutes.',
  },
  {
    id: 'rooibos',
    name: 'Rooibos Vanilla',
    category: 'tea',
    priceCents: 530,
    origin: 'Cederberg, South Africa',
    description: 'A caffeine-free red bush infusion with vanilla. Good iced.',
  },
  {
    id: 'ethiopia',
    name: 'Yirgacheffe',
    category: 'coffee',
    priceCents: 1290,
    origin: 'Yirgacheffe, Ethiopia',
    description: 'A washed light roast with notes of jasmine and lemon. Whole beans, 250 g.',
  },
  {
    id: 'colombia',
    name: 'Huila',
    category: 'coffee',
    priceCents: 1090,
    origin: 'Huila, Colombia',
    description: 'A medium roast with caramel and red apple. Whole beans, 250 g.',
  },
  {
    id: 'espresso',
    name: 'House Espresso',
    category: 'coffee',
    priceCents: 980,
    origin: 'Brazil and Guatemala',
    description: 'A dark blend for espresso and moka pots. Whole beans, 250 g.',
  },
  {
    id: 'cocoa-dark',
    name: 'Dark Drinking Chocolate',
    category: 'cocoa',
    priceCents: 870,
    origin: 'Tumaco, Colombia',
    description: '70 % cacao flakes that melt into hot milk. 200 g.',
  },
  {
    id: 'cocoa-spiced',
    name: 'Spiced Cocoa',
    category: 'cocoa',
    priceCents: 760,
    origin: 'Oaxaca, Mexico',
    description: 'Cocoa with cinnamon and a little chili. 200 g.',
  },
  {
    id: 'teapot',
    name: 'Cast Iron Teapot',
    category: 'teaware',
    priceCents: 3900,
    origin: 'Iwate, Japan',
    description: 'A 0.6 l tetsubin with an enamelled inside and a steel infuser.',
  },
  {
    id: 'infuser',
    name: 'Mesh Infuser',
    category: 'teaware',
    priceCents: 690,
    origin: 'Made in Germany',
    description: 'A fine stainless steel basket that fits most mugs and pots.',
  },
];

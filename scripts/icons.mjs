// npm run icons: draws the install icons from the app's brand (public/favicon.svg) in Chromium and
// writes them to public/icons/: any-purpose 192 and 512 px (the favicon as it is, rounded corners
// and all), a maskable 512 px (the purple fills the square and the mark sits inside the 80 % safe
// zone, so a launcher's circle or squircle never cuts it) and the 180 px apple-touch-icon (a full
// square without transparency: iOS rounds it itself). Run it again when the favicon changes.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const OUT = path.resolve('public/icons');
const favicon = readFileSync(path.resolve('public/favicon.svg'), 'utf8');
/** The favicon's square colour: the maskable and apple icons fill their whole square with it. */
const BRAND = /<rect[^>]*fill="(#[0-9a-f]{3,8})"/i.exec(favicon)?.[1];
if (!BRAND) throw new Error('public/favicon.svg has no <rect fill="#…">: the icons take their background from it');
/** The favicon's mark (everything but the background square). */
const mark = favicon
  .replace(/^<svg[^>]*>/, '')
  .replace(/<\/svg>\s*$/, '')
  .replace(/<rect[^>]*\/>/, '');

/** The mark on a full square, scaled to `scale` of the side around the centre. */
function fullSquare(scale) {
  const offset = (64 * (1 - scale)) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BRAND}"/><g transform="translate(${offset} ${offset}) scale(${scale})">${mark}</g></svg>`;
}

const ICONS = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  // The mark's own box is about 40 of 64 units wide; at 0.7 it stays inside the 80 % circle.
  { file: 'icon-maskable-512.png', size: 512, svg: fullSquare(0.7) },
  { file: 'apple-touch-icon.png', size: 180, svg: fullSquare(0.85) },
];

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const { file, size, svg } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.locator('svg').screenshot({ path: path.join(OUT, file), omitBackground: true });
    await page.close();
    console.log(`public/icons/${file} (${size}×${size})`);
  }
} finally {
  await browser.close();
}

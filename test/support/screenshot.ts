// Checks on what the engine painted, not on the DOM: a screenshot of a light-DOM element (taken by
// the test runner's driver, test/support/browsers/commands.ts) and where the ink lies in it.
import { executeServerCommand } from '@web/test-runner-commands';

export interface Picture {
  pixels: ImageData;
  /** Screenshot pixels per CSS pixel. */
  scale: number;
  /** The element's box on the page when it was taken (measure regions before anything scrolls). */
  box: DOMRect;
}

/** A screenshot of `selector` (a light-DOM element of the test page, inside the viewport). */
export async function screenshot(selector: string): Promise<Picture> {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`nothing matches ${selector}`);
  element.scrollIntoView({ block: 'start' });
  const shot = await executeServerCommand<{ png: string; viewport: boolean }, { selector: string }>('svc-screenshot', { selector });
  if (!shot?.png) throw new Error('the runner took no screenshot');
  // Measured after: the driver may scroll the element into view to take it.
  const box = element.getBoundingClientRect();
  const image = new Image();
  image.src = `data:image/png;base64,${shot.png}`;
  await image.decode();
  const scale = shot.viewport ? image.naturalWidth / document.documentElement.clientWidth : image.naturalWidth / box.width;
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(box.width * scale);
  canvas.height = Math.round(box.height * scale);
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  if (shot.viewport) context.drawImage(image, -box.left * scale, -box.top * scale);
  else context.drawImage(image, 0, 0);
  return { pixels: context.getImageData(0, 0, canvas.width, canvas.height), scale, box };
}

/**
 * In the band of `picture` covered by `region` (a box on the page, e.g. a heading's), the space
 * in CSS pixels between the band's left edge and the leftmost ink, and between the rightmost ink
 * and its right edge, and where the ink's mass lies. Ink is any pixel far from the band's most
 * common colour (its background).
 */
export function inkGaps(picture: Picture, region: DOMRect): { left: number; right: number; ink: number; centre: number } {
  const { pixels, scale, box } = picture;
  const x0 = Math.max(0, Math.round((region.left - box.left) * scale));
  const x1 = Math.min(pixels.width, Math.round((region.right - box.left) * scale));
  const y0 = Math.max(0, Math.round((region.top - box.top) * scale));
  const y1 = Math.min(pixels.height, Math.round((region.bottom - box.top) * scale));
  const at = (x: number, y: number) => {
    const i = (y * pixels.width + x) * 4;
    return [pixels.data[i]!, pixels.data[i + 1]!, pixels.data[i + 2]!];
  };
  const counts = new Map<string, number>();
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    const key = at(x, y).join();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const background = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0].split(',').map(Number) ?? [255, 255, 255];
  let first = x1;
  let last = x0 - 1;
  let ink = 0;
  let sumX = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    const rgb = at(x, y);
    if (Math.max(...rgb.map((v, c) => Math.abs(v - background[c]!))) < 64) continue;
    ink++;
    sumX += x;
    first = Math.min(first, x);
    last = Math.max(last, x);
  }
  // centre: where the ink's mass lies across the band, 0 (left edge) to 1 (right edge).
  return { left: (first - x0) / scale, right: (x1 - 1 - last) / scale, ink, centre: ink ? (sumX / ink - x0) / (x1 - x0) : NaN };
}

// Scans decoded ahead by the web view. The Rust side prepares the scan "next" will
// open (decoded, scaled, as a data URL); decoding that URL here too, and keeping the
// image, lets WebKit's memory cache hand the scoring view an image that is ready:
// measured, the first paint of a scan not decoded ahead took 80 ms longer
// (docs/benchmarks.md).

/** How many decoded scans are kept referenced (the Rust side keeps 4 too). */
const KEPT = 4;

const decoded: HTMLImageElement[] = [];

/** Decodes `dataUrl` and keeps it; resolves when it is ready (or could not be). */
export async function decodeAhead(dataUrl: string): Promise<void> {
  if (decoded.some((image) => image.src === dataUrl)) return;
  const image = new Image();
  image.src = dataUrl;
  await image.decode().catch(() => {});
  decoded.push(image);
  if (decoded.length > KEPT) decoded.shift();
}

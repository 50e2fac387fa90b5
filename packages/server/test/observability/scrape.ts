/** One scrape of `/metrics`, read as `name{labels} value` samples (comments skipped). */
export interface Scrape {
  text: string;
  /** The value of the sample with exactly these labels; 0 when the series does not exist yet. */
  value(name: string, labels?: Record<string, string>): number;
}

export function parseScrape(text: string): Scrape {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not a Prometheus sample line: ${line}`);
    const labels = [...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, key, value]) => `${key}=${value}`)
      .sort()
      .join(',');
    samples.set(`${match[1]}{${labels}}`, Number(match[3]));
  }
  return {
    text,
    value(name, labels = {}) {
      const key = Object.entries(labels)
        .map(([label, value]) => `${label}=${value}`)
        .sort()
        .join(',');
      return samples.get(`${name}{${key}}`) ?? 0;
    },
  };
}

export async function scrape(url: string, token?: string): Promise<Scrape> {
  const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  if (response.status !== 200)
    throw new Error(`/metrics answered ${response.status}: ${await response.text()}`);
  return parseScrape(await response.text());
}

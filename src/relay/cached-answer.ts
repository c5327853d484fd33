// The relay's kept answers (GET /config, embed codes): public JSON that browsers and CDNs may keep,
// made once when cached and shared by every request, written as a web Response or straight to
// Node's response (node.ts), in neither case through a Headers object.

/** One kept answer, with its headers as a plain object. */
export interface CachedAnswer {
  status: 200 | 304;
  headers: Readonly<Record<string, string>>;
  body: string | null;
}

/**
 * The answers to a GET without Origin of one cached JSON body, made once when it is cached: the
 * relay's hottest answers are then written with no object made for them (a header object per
 * request costs about 10 µs of a 50-90 µs cached embed GET on the benchmark machine). Shared by
 * every request: never changed.
 */
export interface CachedAnswers {
  etag: string;
  ok: CachedAnswer;
  notModified: CachedAnswer;
  /** The body is compressed on its way out (compress-json.ts, 1 KB and more): never answered before routing. */
  compressed: boolean;
}

export const toResponse = (answer: CachedAnswer) => new Response(answer.body, { status: answer.status, headers: answer.headers });

/** GETs of the public main page API: the envelope's data, remembered for the session (the server revalidates with ETag). */
const cache = new Map<string, Promise<unknown>>();

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function query(params?: Record<string, string | number | undefined | null>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== null && v !== "") q.append(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export function getPublic<T>(path: string, params?: Record<string, string | number | undefined | null>): Promise<T> {
  const url = `/Backend/Public/mainpage/${path}${query(params)}`;
  let p = cache.get(url) as Promise<T> | undefined;
  if (!p) {
    p = fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(async (res) => {
        const body = (await res.json().catch(() => null)) as { error: number; info: string; data?: T } | null;
        if (!res.ok || !body || body.error !== 0) throw new ApiError(res.status, body?.info ?? "服务器暂时无法访问，请稍后再试");
        return body.data as T;
      })
      .catch((e) => {
        cache.delete(url);
        throw e instanceof ApiError ? e : new ApiError(0, "您的网络发生异常，无法连接服务器");
      });
    cache.set(url, p);
    if (cache.size > 200) cache.delete(cache.keys().next().value!);
  }
  return p;
}

/**
 * The REST API, from the page: same origin, the API key (when the server needs one) as a
 * bearer token, kept for this tab only. Errors keep the API's code and message.
 */
const KEY = "hindsight-api-key";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export function apiKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function setApiKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const key = apiKey();
  const response = await fetch(path, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!response.ok) {
    throw new ApiError(
      response.status,
      String(data.code ?? response.status),
      String(data.message ?? response.statusText),
      typeof data.field === "string" ? data.field : undefined,
    );
  }
  return data as T;
}

/** A query string of the defined, non-empty values; lists as repeated parameters. */
export function query(values: Record<string, string | number | boolean | string[] | undefined>) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === "") continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, item);
    else params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

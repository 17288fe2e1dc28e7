// The public API, same origin, with the reader's token (if any) from localStorage.

const TOKEN_KEY = "ratings.dashboard.token";
// The page lives at <base>/dashboard, so the API is at <base>/ (works behind a path prefix).
const API_BASE = new URL(".", document.baseURI);
// Ladders and systems do not change while one reads a page: fetch each once per session.
const cache = new Map();

export class ApiError extends Error {
  constructor(status, problem) {
    const detail = problem?.detail || problem?.title || `HTTP ${status}`;
    super(detail);
    this.status = status;
    this.problem = problem;
  }
}

export function getToken() {
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return ""; // storage disabled: behave as if no token was given
  }
}

export function setToken(token) {
  localStorage.setItem(TOKEN_KEY, token.trim());
  cache.clear();
}

export function clearToken() {
  localStorage.removeItem(TOKEN_KEY);
  cache.clear();
}

/** Calls the API; tries without a token when none is stored (servers with public reads). */
export async function api(path, { method = "GET", query, body } = {}) {
  const url = new URL(path.replace(/^\//, ""), API_BASE);
  for (const [key, value] of Object.entries(query || {})) {
    if (value !== null && value !== undefined && value !== "") url.searchParams.set(key, value);
  }
  const headers = { Accept: "application/json" };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** Every season of a ladder, by start: the list is paged (at most 500 a page), and a
 * schedule's seasons may be more. */
export async function allSeasons(ladderId) {
  const path = `ladders/${encodeURIComponent(ladderId)}/seasons`;
  const seasons = [];
  for (;;) {
    const page = await api(path, { query: { limit: 500, offset: seasons.length } });
    seasons.push(...page);
    if (page.length < 500) return seasons;
  }
}

export function cached(path) {
  if (!cache.has(path)) {
    cache.set(path, api(path).catch((error) => {
      cache.delete(path);
      throw error;
    }));
  }
  return cache.get(path);
}

export async function ladderAndSystem(ladderId) {
  const ladder = await cached(`ladders/${encodeURIComponent(ladderId)}`);
  const system = await cached(`systems/${encodeURIComponent(ladder.system)}`);
  return { ladder, system };
}

/** Every page of a paginated list (limit 500 per request). */
export async function all(path, key, query = {}) {
  const limit = 500;
  const first = await api(path, { query: { ...query, limit, offset: 0 } });
  const items = [...first[key]];
  while (items.length < first.total) {
    const page = await api(path, { query: { ...query, limit, offset: items.length } });
    if (!page[key].length) break;
    items.push(...page[key]);
  }
  return { ...first, [key]: items };
}

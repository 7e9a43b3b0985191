// The proxy an account reaches core through (config `proxies[]`, D2.x), as every HTTP client of core/ takes it:
// its own file so the socket client (http1/) and the fetch path (http.ts) share it without importing each other.
export interface ProxySpec {
  type: "http" | "socks5" | "socks5h";
  host: string;
  port: number;
  username?: string;
  password?: string;
}
